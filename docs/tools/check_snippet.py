#!/usr/bin/env python3
"""Run one check extracted by extract_snippets.py (the conventions are described there).

  check_snippet.py run EXE EXPECTED [WHERE]               run a compiled ```cpp block, compare
                                                          its stdout
  check_snippet.py compile-fail EXPECTED [WHERE] -- CMD...  CMD (a build of the block) must fail,
                                                          and its output must contain every
                                                          expected line
  check_snippet.py sh TOOL JSON                           run the `cute-dsl` commands of a ```sh block

WHERE (DOC:LINE, the block's opening fence) only makes the report point at the doc.

Exit status: 0 when the check holds, 1 when it does not (the report starts with
"docs check FAILED"), 2 for a usage error. Python 3 standard library only.
"""
import json
import shlex
import subprocess
import sys

TIMEOUT_S = 120


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


def line_matches(expected, actual):
    expected, actual = expected.rstrip(), actual.rstrip()
    if expected.endswith(" ..."):
        return actual.startswith(expected[:-4])
    return expected == actual


def compare(what, expected, actual_text):
    """Returns a list of human-readable differences (empty when equal)."""
    actual = actual_text.splitlines()
    problems = []
    for k in range(max(len(expected), len(actual))):
        e = expected[k] if k < len(expected) else None
        a = actual[k] if k < len(actual) else None
        if e is None:
            problems.append(f"{what} line {k + 1}: unexpected extra line {a!r}")
        elif a is None:
            problems.append(f"{what} line {k + 1}: expected {e!r}, but the output ended")
        elif not line_matches(e, a):
            problems.append(f"{what} line {k + 1}:\n    expected {e.rstrip()!r}\n    actual   {a.rstrip()!r}")
    return problems


def fail(header, problems):
    print(f"docs check FAILED: {header}")
    for p in problems:
        print("  " + p)
    return 1


def check_run(exe, expected_path, where):
    expected = read_lines(expected_path)
    p = subprocess.run([exe], capture_output=True, text=True, timeout=TIMEOUT_S)
    problems = compare("stdout", expected, p.stdout)
    if p.returncode != 0:
        problems.insert(0, f"exit status {p.returncode} (expected 0); stderr: {p.stderr.strip()!r}")
    if problems:
        print("--- actual stdout ---\n" + p.stdout + "--- end ---")
        return fail(f"{where or exe}: the block does not print what its `// prints:` comments say", problems)
    print(f"ok: {len(expected)} line(s) as documented")
    return 0


def check_compile_fail(expected_path, where, cmd):
    expected = read_lines(expected_path)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S)
    output = p.stdout + p.stderr
    problems = []
    if p.returncode == 0:
        problems.append("the block compiled, but it is marked compile-fail")
    for e in expected:
        if e not in output:
            problems.append(f"the compiler output lacks {e!r}")
    if problems:
        print("--- compiler output ---\n" + output + "--- end ---")
        return fail(f"{where or 'a'} compile-fail block", problems)
    print(f"ok: failed to compile, with the {len(expected)} documented message(s)")
    return 0


def check_sh(tool, json_path):
    with open(json_path, encoding="utf-8") as f:
        spec = json.load(f)
    problems = []
    for case in spec["cases"]:
        where = f"{spec['doc']}:{case['line']}: {case['command']}"
        argv = shlex.split(case["command"])
        p = subprocess.run([tool, *argv[1:]], capture_output=True, text=True, timeout=TIMEOUT_S)
        expected = case["expected"]
        wants_error = bool(expected) and expected[0].startswith("ERROR")
        if wants_error:
            diffs = compare("stderr", expected, p.stderr)
            if p.returncode == 0:
                diffs.insert(0, "exit status 0, but the docs show an ERROR")
            if p.stdout:
                diffs.append(f"stdout should be empty on an error, got {p.stdout!r}")
        else:
            diffs = compare("stdout", expected, p.stdout)
            if p.returncode != 0:
                diffs.insert(0, f"exit status {p.returncode}; stderr: {p.stderr.strip()!r}")
        if diffs:
            problems.append(where + "\n    " + "\n    ".join(d.replace("\n", "\n    ") for d in diffs))
    if problems:
        return fail(f"{len(problems)} of {len(spec['cases'])} `cute-dsl` command(s) differ from the docs", problems)
    print(f"ok: {len(spec['cases'])} command(s) as documented")
    return 0


def main(argv):
    if len(argv) in (3, 4) and argv[0] == "run":
        return check_run(argv[1], argv[2], argv[3] if len(argv) == 4 else None)
    if len(argv) >= 4 and argv[0] == "compile-fail" and "--" in argv[2:4]:
        sep = argv.index("--")
        return check_compile_fail(argv[1], argv[2] if sep == 3 else None, argv[sep + 1:])
    if len(argv) == 3 and argv[0] == "sh":
        return check_sh(argv[1], argv[2])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
