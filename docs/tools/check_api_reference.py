#!/usr/bin/env python3
"""Checks that docs/api.md lists every public header, and only existing ones.

Public headers: include/cute_dsl/**/*.hpp and jit/include/cute_dsl/**/*.hpp. A header is listed
when a table row of api.md starts with its include name in backticks, `| [`cute_dsl/x.hpp`](...)`.
Usage: check_api_reference.py REPO_ROOT. Exit status 1 with one line per problem.
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
headers = {p.relative_to(base).as_posix()
           for base in (root / "include", root / "jit" / "include")
           for p in base.glob("cute_dsl/**/*.hpp")}
api = root / "docs" / "api.md"
listed = re.findall(r"^\| \[`(cute_dsl/[^`]+\.hpp)`\]", api.read_text(), re.MULTILINE)
problems = [f"{api}: public header not listed: {h}" for h in sorted(headers - set(listed))]
problems += [f"{api}: lists a header that does not exist: {h}" for h in sorted(set(listed) - headers)]
problems += [f"{api}: listed twice: {h}" for h in sorted({h for h in listed if listed.count(h) > 1})]
for p in problems:
    print(p)
print(f"{len(headers)} public headers, {len(listed)} rows, {len(problems)} problem(s)")
sys.exit(1 if problems else 0)
