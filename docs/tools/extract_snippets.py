#!/usr/bin/env python3
"""Extract the code blocks of the Markdown docs so the build can compile, run and check them.

Why: a tutorial whose examples are not compiled drifts from the code within weeks. Every
```cpp block and every checked `cute-dsl` command in docs/*.md becomes a CTest test
(test/docs/CMakeLists.txt); a doc whose example no longer prints what the text says fails the
build's tests. Python 3 standard library only.

THE CONVENTIONS (what a doc writer needs to know)

```cpp blocks (also ```c++). Every one is checked; there is no opt-out (use ```text for
pseudo-code or signatures).
  * The block is compiled as one translation unit after this prelude:
        #include <cute_dsl/cute_dsl.hpp>
        #include <cute_dsl/util/print.hpp>
        #include <iostream>
        using namespace cute_dsl;
  * If the block has no `int main(` line, its `#include` lines are moved above (the line numbers
    are kept), and the rest becomes the body of `int main()`. Otherwise the block is the whole
    translation unit (after the prelude): use that for snippets that define functions or types.
  * `// prints: TEXT` at the end of a line (or on a line of its own) declares one line of output.
    The program's standard output must be exactly the sequence of declared lines, in the order
    they appear in the block (trailing blanks are ignored, since Markdown editors strip them).
    A block with no `// prints:` must print nothing. `TEXT` ending in ` ...` matches any line
    that starts with what comes before the ` ...` (for long error messages). The program must
    exit with status 0.
  * ```cpp compile-fail: the block must NOT compile, and each `// error: TEXT` in it must appear
    (as a substring) in the compiler's output. At least one `// error:` is required, so that a
    block failing for an unrelated reason (a typo) does not pass.
  * Compiler diagnostics point at the Markdown file and line (`#line` directives).

```cuda blocks: device code (kernels, PTX wrappers) that this machine may not be able to run. The
  block is one whole translation unit after the same prelude, compiled by nvcc for sm_90a
  (compile only: no main, nothing run); the check passes when it compiles. Kernels that must also
  run belong in GPU tests (test/pipeline/, ...), which the doc should name.

```sh blocks (also ```bash, ```shell, ```console): only lines whose first word is `cute-dsl` (or a path ending in `/cute-dsl`),
optionally after a `$ ` prompt, are checked; other lines (cmake, ...) are left alone.
  * `cute-dsl layout 'EXPR'   # -> RESULT` : the tool's output must be the one line RESULT.
  * A command with no `# ->` takes its expected output from the ```text block that follows the
    ```sh block (with only blank lines between). With one such command in the sh block the text
    block is its whole output (a --table, say); with several, each takes one line of it, in
    order. A checked command with neither is an extraction error.
  * An expected output starting with `ERROR` is compared with standard error and requires a
    non-zero exit status; anything else with standard output and exit status 0. ` ...` at the
    end of a line is a prefix match, as above.

USAGE
  extract_snippets.py --list DOC.md...            one line per check: NAME KIND DOC LINE (tabs)
  extract_snippets.py --out DIR DOC.md...         write DIR/NAME.cpp + DIR/NAME.expected (cpp)
                                                  or DIR/NAME.json (sh); only changed files are
                                                  rewritten, then DIR/extract.stamp is touched
NAME is `<doc stem>.cpp_<k>` or `<doc stem>.sh_<k>` (k counts from 1 in each doc); KIND is
`run`, `compile_fail`, `cuda` (NAME `<doc stem>.cuda_<k>`, written as DIR/NAME.cu) or `sh`.
"""
import json
import os
import re
import sys

PRELUDE = (
    "#include <cute_dsl/cute_dsl.hpp>\n"
    "#include <cute_dsl/util/print.hpp>\n"
    "#include <iostream>\n"
    "using namespace cute_dsl;\n"
)

CPP_LANGS = {"cpp", "c++"}
CUDA_LANGS = {"cuda"}
FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`]*)$")
PRINTS = re.compile(r"//\s*prints:(?: (?P<text>.*)|(?P<empty>\s*))$")
ERROR = re.compile(r"//\s*error:\s*(?P<text>.*?)\s*$")
MAIN = re.compile(r"^\s*int\s+main\s*\(")
TOOL_WORD = re.compile(r"^(?:\$\s+)?(?P<cmd>(?:\S*/)?cute-dsl(?:\s.*)?)$")


class DocError(Exception):
    pass


def blocks_of(path):
    """Yields (lang, attributes, first content line number (1-based), content lines, and whether
    only blank lines separate the block from the previous one)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    previous_end = None  # index of the previous block's closing fence
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, indent = m.group("fence"), len(m.group("indent"))
        words = m.group("info").split()
        lang, attrs = (words[0].lower(), words[1:]) if words else ("", [])
        start = i + 1
        body = []
        i += 1
        while i < len(lines):
            close = FENCE.match(lines[i])
            if close and close.group("fence")[0] == fence[0] and len(close.group("fence")) >= len(fence) \
                    and not close.group("info").strip():
                break
            line = lines[i]
            body.append(line[indent:] if line[:indent].strip() == "" else line)
            i += 1
        else:
            raise DocError(f"{path}:{start}: code block never closed")
        adjacent = previous_end is not None and all(not l.strip() for l in lines[previous_end + 1:start - 1])
        yield lang, attrs, start + 1, body, adjacent
        previous_end = i
        i += 1


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def cpp_translation_unit(path, first_line, body):
    has_main = any(MAIN.match(l) for l in body)
    out = [PRELUDE]
    src = c_string(os.path.abspath(path))
    if has_main:
        out.append(f"#line {first_line} {src}\n")
        out.extend(l + "\n" for l in body)
        return "".join(out)
    includes = [l for l in body if l.lstrip().startswith("#include")]
    out.extend(l.strip() + "\n" for l in includes)
    out.append("int main() {\n")
    out.append(f"#line {first_line} {src}\n")
    out.extend(("" if l.lstrip().startswith("#include") else l) + "\n" for l in body)
    out.append("}\n")
    return "".join(out)


def expected_prints(body):
    lines = []
    for l in body:
        m = PRINTS.search(l)
        if m:
            lines.append(m.group("text") if m.group("text") is not None else "")
    return lines


def split_expectation(line):
    """`cmd  # -> out` -> (cmd, out); `cmd` -> (cmd, None). Expressions never contain '#'."""
    k = line.find("# ->")
    if k < 0:
        return line.rstrip(), None
    out = line[k + 4:]
    return line[:k].rstrip(), out[1:] if out.startswith(" ") else out


def sh_cases(path, first_line, body, following_text):
    """The checked commands of one ```sh block, with their expected output lines."""
    cases, pending = [], []
    for offset, raw in enumerate(body):
        m = TOOL_WORD.match(raw.strip())
        if not m:
            continue
        cmd, out = split_expectation(m.group("cmd"))
        case = {"line": first_line + offset, "command": cmd, "expected": None}
        if out is not None:
            case["expected"] = [out]
        else:
            pending.append(case)
        cases.append(case)
    if pending:
        if following_text is None:
            raise DocError(f"{path}:{pending[0]['line']}: `{pending[0]['command']}` has no expected output: "
                           "add `# -> RESULT` or a ```text block right after the ```sh block")
        text = list(following_text)
        while text and not text[-1].strip():
            text.pop()
        if len(pending) == 1:
            pending[0]["expected"] = text
        else:
            # Several commands share one text block: each command's output is one line.
            if len(text) != len(pending):
                raise DocError(f"{path}:{pending[0]['line']}: {len(pending)} commands without `# ->` but the "
                               f"```text block after them has {len(text)} lines; give each its own block")
            for case, line in zip(pending, text):
                case["expected"] = [line]
    return cases


def checks_of(path):
    """Yields dicts: name, kind, line, and the payload to write."""
    stem = os.path.splitext(os.path.basename(path))[0]
    items = list(blocks_of(path))
    n_cpp = n_sh = n_cuda = 0
    for index, (lang, attrs, first, body, _) in enumerate(items):
        if lang in CPP_LANGS:
            n_cpp += 1
            unknown = [a for a in attrs if a != "compile-fail"]
            if unknown:
                raise DocError(f"{path}:{first - 1}: unknown attribute(s) {unknown} on a ```cpp block "
                               "(known: compile-fail)")
            kind = "compile_fail" if "compile-fail" in attrs else "run"
            name = f"{stem}.cpp_{n_cpp:02d}"
            if kind == "compile_fail":
                errors = [m.group("text") for m in map(ERROR.search, body) if m]
                if not errors:
                    raise DocError(f"{path}:{first - 1}: a compile-fail block needs at least one `// error: TEXT`")
                expected = errors
            else:
                expected = expected_prints(body)
            yield {"name": name, "kind": kind, "line": first - 1,
                   "cpp": cpp_translation_unit(path, first, body), "expected": expected}
        elif lang in CUDA_LANGS:
            n_cuda += 1
            if attrs:
                raise DocError(f"{path}:{first - 1}: unknown attribute(s) {attrs} on a ```cuda block (none known)")
            src = PRELUDE + f"#line {first} {c_string(os.path.abspath(path))}\n" + "".join(l + "\n" for l in body)
            yield {"name": f"{stem}.cuda_{n_cuda:02d}", "kind": "cuda", "line": first - 1, "cu": src}
        elif lang in ("sh", "bash", "shell", "console"):
            following = None
            if index + 1 < len(items) and items[index + 1][0] == "text" and items[index + 1][4]:
                following = items[index + 1][3]
            cases = sh_cases(path, first, body, following)
            if cases:
                n_sh += 1
                yield {"name": f"{stem}.sh_{n_sh:02d}", "kind": "sh", "line": first - 1,
                       "cases": cases, "doc": os.path.abspath(path)}


def write_if_changed(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def main(argv):
    if len(argv) >= 2 and argv[0] == "--list":
        for doc in argv[1:]:
            for c in checks_of(doc):
                print(c["name"], c["kind"], os.path.abspath(doc), c["line"], sep="\t")
        return 0
    if len(argv) >= 3 and argv[0] == "--out":
        out_dir = argv[1]
        os.makedirs(out_dir, exist_ok=True)
        for doc in argv[2:]:
            for c in checks_of(doc):
                base = os.path.join(out_dir, c["name"])
                if c["kind"] == "cuda":
                    write_if_changed(base + ".cu", c["cu"])
                elif c["kind"] == "sh":
                    write_if_changed(base + ".json", json.dumps(
                        {"doc": c["doc"], "cases": c["cases"]}, indent=1) + "\n")
                else:
                    write_if_changed(base + ".cpp", c["cpp"])
                    write_if_changed(base + ".expected", "".join(l + "\n" for l in c["expected"]))
        with open(os.path.join(out_dir, "extract.stamp"), "w") as f:
            f.write("")
        return 0
    sys.stderr.write(__doc__[__doc__.index("USAGE"):])
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except DocError as e:
        sys.stderr.write(f"extract_snippets: {e}\n")
        sys.exit(1)
