#!/usr/bin/env python3
"""Check the relative links of Markdown files: the target file exists, and a `#anchor` names a
heading of the target (GitHub's rule: lower case, punctuation dropped, spaces to hyphens).

  check_links.py DOC.md...     exit 0 if every link resolves; else 1, with one line per broken link

External links (http:, https:, mailto:) are not followed. Links inside code blocks and inline
code are ignored. Python 3 standard library only.
"""
import os
import re
import sys

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
LINK = re.compile(r"\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
INLINE_CODE = re.compile(r"(`+).*?\1")
HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$")


def prose_lines(path):
    """(line number, text) of the lines outside code blocks, inline code removed."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    fence = None
    for n, line in enumerate(lines, 1):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
            continue
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not line.strip().strip(fence[0]):
                fence = None
            continue
        yield n, INLINE_CODE.sub("", line)


def slug(heading):
    text = re.sub(r"`", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found = set()
        for _, line in prose_lines(path):
            m = HEADING.match(line)
            if m:
                base = slug(m.group(1))
                name, k = base, 1
                while name in found:  # repeated headings get -1, -2, ...
                    name, k = f"{base}-{k}", k + 1
                found.add(name)
        cache[path] = found
    return cache[path]


def check(doc):
    problems = []
    for n, line in prose_lines(doc):
        for m in LINK.finditer(line):
            target = m.group(1)
            if re.match(r"^[a-z]+:", target):
                continue
            file_part, _, anchor = target.partition("#")
            path = os.path.normpath(os.path.join(os.path.dirname(doc), file_part)) if file_part else doc
            if not os.path.exists(path):
                problems.append(f"{doc}:{n}: link to a missing file: {target}")
            elif anchor and (not file_part or path.endswith(".md")) and anchor not in anchors(path):
                problems.append(f"{doc}:{n}: no heading for the anchor #{anchor} in {path}")
    return problems


def main(docs):
    if not docs:
        sys.stderr.write(__doc__)
        return 2
    problems = [p for d in docs for p in check(d)]
    for p in problems:
        print(p)
    print(f"{len(problems)} broken link(s) in {len(docs)} file(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
