#!/usr/bin/env python3
"""Black-box checks of the `cute-dsl` program: exit codes, ERROR messages, batch mode, --table, --svg.

Usage: tool_test.py CUTE_DSL_BINARY CASE [WORK_DIR]. Each CASE is one CTest test; it exits 0 when
every check holds and prints what differed otherwise.
"""
import os
import subprocess
import sys
import tempfile

TOOL = sys.argv[1]
failures = []


def run(*args, stdin=None, env=None):
    p = subprocess.run([TOOL, *args], input=stdin, capture_output=True, text=True, timeout=60,
                       env=None if env is None else {**os.environ, **env})
    return p.returncode, p.stdout, p.stderr


# The JIT cases (registered only when the tool has `jit`): a kernel from the JIT's tests, a
# private disk cache.
KERNEL_HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "jit", "kernels", "elementwise.cuh")
COMPILE = ("jit", "compile", "--header", KERNEL_HEADER, "--kernel", "cute_dsl_jit_test::scale",
           "--targs", "f32, (4,8):(8,1), 128", "--arch", "sm_90a")


def one_error(err):
    lines = err.strip().splitlines()
    return len(lines) >= 1 and lines[0].startswith("ERROR: ")


def check(cond, what):
    if not cond:
        failures.append(what)


def case_help():
    rc, out, err = run("--help")
    check(rc == 0, f"--help exit {rc}")
    check("layout" in out and "usage: cute-dsl" in out, f"--help text: {out!r}")
    rc, out, _ = run("layout", "--help")
    check(rc == 0, f"layout --help exit {rc}")
    for word in ("--batch", "--table", "--svg", "composition(", "logical_divide(", "max_common_vector("):
        check(word in out, f"layout --help lacks {word!r}")
    rc, _, err = run()
    check(rc == 2 and "usage" in err, f"no arguments: exit {rc}, stderr {err!r}")
    rc, _, err = run("nonsense")
    check(rc == 2 and "ERROR: unknown command 'nonsense'" in err, f"unknown command: {rc} {err!r}")
    rc, _, err = run("layout", "--frob", "4:1")
    check(rc == 2 and "unknown option" in err, f"unknown option: {rc} {err!r}")
    rc, _, err = run("layout")
    check(rc == 2 and "no expression" in err, f"missing EXPR: {rc} {err!r}")


def case_single():
    rc, out, err = run("layout", "composition((4,2):(1,4),8:1)")
    check(rc == 0 and out == "8:1\n" and err == "", f"composition: {rc} {out!r} {err!r}")
    rc, out, _ = run("layout", "size(((2,2),3):((1,4),2))")
    check(rc == 0 and out == "12\n", f"size: {rc} {out!r}")
    rc, out, _ = run("layout", "[2:1,2]")
    check(rc == 0 and out == "[2:1,2:1]\n", f"tiler: {rc} {out!r}")
    rc, out, _ = run("layout", "(4):(1)")
    check(rc == 0 and out == "(4):(1)\n", f"rank-1 tuple: {rc} {out!r}")
    # Several words form one expression (unquoted shell use).
    rc, out, _ = run("layout", "size(", "(2,3):(1,2)", ")")
    check(rc == 0 and out == "6\n", f"split words: {rc} {out!r}")
    # A negative integer is an expression, not an option.
    rc, out, _ = run("layout", "-3")
    check(rc == 0 and out == "-3\n", f"negative integer: {rc} {out!r}")


def case_errors():
    for expr, fragment in [
        ("composition((4,2):(1,4)", "parse error at column 24: expected ',' or ')', got end of input"),
        ("frob(4:1)", "unknown operation 'frob'"),
        ("size(4:1,4:1)", "size at column 1: expects 1 argument, got 2"),
        ("composition(((3,2)):((1,6)),(2,2):(1,2))", "composition: "),
        ("complement(((2,2)):((12,5)),36)", "complement: "),
        # Results beyond 64 bits are errors, never wrapped-around layouts (found by fuzzing).
        ("blocked_product((3,3):(1,3),(4,1424294967294967296):(2,0))",
         "blocked_product: Integer overflow: a value computed from"),
        ("composition((3,2):(44444404444444444,8),[1:42429672])", "composition: Integer overflow: "),
        ("size(complement(flat_divide(((1,7)):((11,111111112)),4:111111111111)))",
         "flat_divide: Integer overflow: a value computed from 111111111111 and 111111112 does not fit in 64 bits"),
    ]:
        rc, out, err = run("layout", expr)
        check(rc == 1, f"{expr}: exit {rc}")
        check(out == "", f"{expr}: stdout must stay empty on error, got {out!r}")
        lines = err.strip().splitlines()
        check(len(lines) == 1 and lines[0].startswith("ERROR: ") and fragment in lines[0],
              f"{expr}: stderr {err!r} lacks {fragment!r}")


def case_batch():
    exprs = ["size(8:1)", "frob(1)", "", "coalesce((2,4):(2,4))", "(4,2):(1", "rank(((2,2),3):((1,4),2))",
             "composition(((3,2)):((1,6)),(2,2):(1,2))", "[4]", "depth(4:1)\r"]
    rc, out, err = run("layout", "--batch", stdin="\n".join(exprs) + "\n")
    lines = out.split("\n")
    check(lines[-1] == "", "batch output must end in a newline")
    lines = lines[:-1]
    check(len(lines) == len(exprs), f"batch: {len(lines)} lines for {len(exprs)} inputs: {out!r}")
    want = ["8", "ERROR: ", "ERROR: ", "8:2", "ERROR: parse error at column 9", "2", "ERROR: composition: ",
            "[4:1]", "0"]
    for k, (got, w) in enumerate(zip(lines, want)):
        ok = got.startswith(w) if w.startswith("ERROR") else got == w
        check(ok, f"batch line {k + 1} ({exprs[k]!r}): got {got!r}, want {w!r}")
    check(rc == 1, f"batch with failures: exit {rc}")
    rc, out, _ = run("layout", "--batch", stdin="size(8:1)\nsize(2:1)")  # no final newline
    check(rc == 0 and out == "8\n2\n", f"batch all ok: {rc} {out!r}")
    rc, _, err = run("layout", "--batch", "4:1")
    check(rc == 2 and "--batch" in err, f"--batch with EXPR: {rc} {err!r}")


def case_batch_is_interactive():
    # The answer to each line must arrive before the next line is sent (flush per line).
    p = subprocess.Popen([TOOL, "layout", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        for expr, want in [("size(6:1)", "6"), ("bad(", None), ("cosize(4:2)", "7")]:
            p.stdin.write(expr + "\n")
            p.stdin.flush()
            got = p.stdout.readline().rstrip("\n")
            check(got == want if want else got.startswith("ERROR: "), f"interactive {expr}: {got!r}")
    finally:
        p.stdin.close()
        p.wait(timeout=30)


def case_table():
    rc, out, _ = run("layout", "--table", "(2,3):(3,1)")
    want = ("(2,3):(3,1)\n"
            "      0   1   2 \n"
            "    +---+---+---+\n"
            " 0  | 0 | 1 | 2 |\n"
            "    +---+---+---+\n"
            " 1  | 3 | 4 | 5 |\n"
            "    +---+---+---+\n")
    check(rc == 0 and out == want, f"--table: {rc}\n{out}")
    rc, out, _ = run("layout", "--table", "logical_divide((4,4):(4,1),[2:1,2:1])")
    check(rc == 0 and "+" in out, f"--table of an expression: {rc} {out!r}")
    rc, out, err = run("layout", "--table", "8:1")
    check(rc == 1 and out == "" and "rank-2" in err, f"--table rank 1: {rc} {out!r} {err!r}")
    rc, out, err = run("layout", "--table", "size(8:1)")
    check(rc == 1 and out == "" and "needs a layout" in err, f"--table integer: {rc} {out!r} {err!r}")


def case_svg():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "pic.svg")
        rc, out, err = run("layout", "--svg", path, "(2,3):(3,1)")
        check(rc == 0 and out == "(2,3):(3,1)\n", f"--svg: {rc} {out!r} {err!r}")
        check(os.path.exists(path), "--svg wrote no file")
        if os.path.exists(path):
            text = open(path).read()
            check(text.startswith("<?xml") and "<svg" in text and text.rstrip().endswith("</svg>"),
                  "--svg file is not an SVG document")
            check(text.count('stroke="black"') == 6, "--svg: expected 6 cells")
        bad = os.path.join(d, "missing-dir", "pic.svg")
        rc, out, err = run("layout", "--svg", bad, "(2,3):(3,1)")
        check(rc == 1 and out == "" and "cannot write" in err, f"--svg unwritable: {rc} {out!r} {err!r}")
        other = os.path.join(d, "rank1.svg")
        rc, _, err = run("layout", f"--svg={other}", "8:1")
        check(rc == 1 and not os.path.exists(other), f"--svg rank 1: {rc} {err!r}")


def case_numbers():
    # Every numeric option reads the whole argument as an integer in its range (cli_number.hpp).
    for args, fragment in [
        (("-O", "abc"), "ERROR: -O needs an integer in 0..3, not 'abc'"),
        (("-O", "2x"), "ERROR: -O needs an integer in 0..3, not '2x'"),
        (("-O", "4"), "ERROR: -O needs an integer in 0..3, not '4'"),
        (("-O", ""), "ERROR: -O needs an integer in 0..3, not ''"),
        (("-O", " 2"), "ERROR: -O needs an integer in 0..3, not ' 2'"),
        (("--max-registers", "abc"), "ERROR: --max-registers needs an integer in 0..255, not 'abc'"),
        (("--max-registers", "99999999999"), "ERROR: --max-registers needs an integer in 0..255, not '99999999999'"),
        (("--max-registers", "99999999999999999999999"), "needs an integer in 0..255"),
        (("--max-registers", "-1"), "ERROR: --max-registers needs an integer in 0..255, not '-1'"),
    ]:
        rc, out, err = run(*COMPILE, *args)
        check(rc == 2 and out == "" and one_error(err) and fragment in err, f"{args}: {rc} {out!r} {err!r}")
    for value in ("abc", "0", "4x", "99999999999"):
        rc, _, err = run("jit", "warmup", "--list", "/dev/null", "--workers", value)
        check(rc == 2 and err.startswith(f"ERROR: --workers needs an integer in 1..1024, not '{value}'"),
              f"--workers {value}: {rc} {err!r}")
    rc, _, err = run("jit", "compile", "-O")
    check(rc == 2 and "ERROR: -O needs a value" in err, f"-O without a value: {rc} {err!r}")
    if "demo" in run("--help")[1]:  # built with the CUDA runtime
        for option, value, fragment in [("--elements", "abc", "ERROR: --elements needs an integer in 1..68719476736"),
                                        ("--runs", "3x", "ERROR: --runs needs an integer in 1..1000000, not '3x'"),
                                        ("--elements", None, "ERROR: --elements needs a value")]:
            rc, _, err = run("demo", option, *([value] if value else []))
            check(rc == 2 and err.startswith(fragment), f"demo {option} {value}: {rc} {err!r}")


def case_opt_level_0():
    # -O 0 compiles (NVRTC 13 rejects the -dopt=off that it used to add).
    with tempfile.TemporaryDirectory() as d:
        rc, out, err = run(*COMPILE, "-O", "0", env={"CUTE_DSL_CACHE_DIR": d})
        check(rc == 0 and "symbol:     _Z" in out, f"-O 0: {rc} {out!r} {err!r}")


def case_source_files():
    with tempfile.TemporaryDirectory() as d:
        empty = os.path.join(d, "empty.cu")
        open(empty, "w").close()
        nul = os.path.join(d, "nul.cu")
        with open(nul, "wb") as f:
            f.write(b"template <int N> __global__ void k() {}\n\0garbage\n")
        fifo = os.path.join(d, "fifo.cu")
        os.mkfifo(fifo)
        for path, fragment in [
            ("/dev/zero", "cannot read '/dev/zero': larger than 16 MiB, the most a header or source may be"),
            (fifo, f"cannot read '{fifo}': a FIFO with no writer (nothing to read)"),
            (d, f"cannot read '{d}': it is a directory, not a file"),
            (empty, f"cannot read '{empty}': the file is empty"),
            (nul, f"cannot read '{nul}': a NUL byte at offset 40: not a text file"),
            (os.path.join(d, "missing.cu"), "missing.cu': No such file or directory"),
        ]:
            for option in ("--source", "--header"):
                rc, out, err = run("jit", "compile", option, path, "--kernel", "k", "--arch", "sm_90a")
                check(rc == 1 and out == "" and one_error(err) and fragment in err,
                      f"{option} {path}: {rc} {out!r} {err!r}")


def case_unwritable_stdout():
    # Output that cannot be written is a failure: exit status 1 and one ERROR line.
    if not os.path.exists("/dev/full"):
        print("SKIPPED: no /dev/full")
        return
    with tempfile.TemporaryDirectory() as d:
        for args, stdin in [(COMPILE, None), (("cache", "stats", "--dir", d), None),
                            (("layout", "--batch"), "size(8:1)\n" * 5000), (("layout", "size(8:1)"), None),
                            (("--help",), None)]:
            with open("/dev/full", "w") as full:
                p = subprocess.run([TOOL, *args], input=stdin, stdout=full, stderr=subprocess.PIPE, text=True,
                                   timeout=60, env={**os.environ, "CUTE_DSL_CACHE_DIR": d})
            check(p.returncode == 1 and p.stderr.startswith("ERROR: cannot write the output: "),
                  f"{args[:2]} > /dev/full: {p.returncode} {p.stderr!r}")


def case_help_wording():
    rc, out, err = run("cache", "stats", "--help")
    check(rc == 0 and "usage: cute-dsl cache" in out and err == "", f"cache stats --help: {rc} {out!r} {err!r}")
    rc, out, _ = run("jit", "--help")
    check(rc == 0 and "jit compile" in out and "jit warmup" in out, f"jit --help: {rc} {out!r}")
    rc, out, _ = run("help", "layout")
    check(rc == 0 and "usage: cute-dsl layout" in out, f"help layout: {rc} {out!r}")
    rc, _, err = run("help", "nonsense")
    check(rc == 2 and "ERROR: unknown command 'nonsense'" in err, f"help nonsense: {rc} {err!r}")
    rc, _, err = run(*COMPILE, "--link", "/nonexistent.a")
    check(rc == 2 and err.startswith("ERROR: "), f"--link missing: {rc} {err!r}")
    rc, _, err = run(*COMPILE[:-1], "sm_999")
    check(rc == 1 and "arch 'sm_999' is not supported by this NVRTC" in err and "from the API" not in err,
          f"--arch sm_999: {rc} {err!r}")
    # A huge argument is not echoed back whole (nor repeated by NVRTC's log).
    huge = "(" + "1," * 50000 + "x"
    for option, fragment in [("--kernel", "is not a kernel name such as ns::scale"),
                             ("--define", "must be NAME or NAME=VALUE"), ("--targs", "ERROR: ")]:
        rc, _, err = run(*COMPILE, option, huge)  # the last --kernel/--targs wins
        check(rc == 1 and fragment in err and len(err) < 2000, f"huge {option}: {rc} {len(err)} bytes {err[:300]!r}")
    rc, _, err = run(*COMPILE, "--define", "=5")
    check(rc == 1 and "define '=5' must be NAME or NAME=VALUE, NAME an identifier" in err, f"--define =5: {rc} {err!r}")


def case_embedded_header():
    # docs/05_gemm.md's command, as written: the library header comes from the JIT's embedded copy.
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run([TOOL, "jit", "compile", "--header", "cute_dsl/kernels/gemm_sm90.hpp", "--kernel",
                            "cute_dsl::kernels::gemm_sm90_kernel", "--targs", "bf16, bf16, 256, 4, 2", "--arch", "sm_90a"],
                           cwd=d, capture_output=True, text=True, timeout=120, env={**os.environ, "CUTE_DSL_CACHE_DIR": d})
        check(p.returncode == 0 and "symbol:     _ZN8cute_dsl7kernels16gemm_sm90_kernel" in p.stdout,
              f"embedded gemm header: {p.returncode} {p.stdout!r} {p.stderr!r}")
        p = subprocess.run([TOOL, "jit", "compile", "--header", "cute_dsl/no_such.hpp", "--kernel", "k", "--arch", "sm_90a"],
                           cwd=d, capture_output=True, text=True, timeout=60, env={**os.environ, "CUTE_DSL_CACHE_DIR": d})
        check(p.returncode == 1 and p.stderr.startswith("ERROR: ") and "no_such.hpp" in p.stderr,
              f"missing library header: {p.returncode} {p.stderr[:400]!r}")


def case_json():
    import json
    with tempfile.TemporaryDirectory() as d:
        env = {"CUTE_DSL_CACHE_DIR": d}
        rc, out, err = run(*COMPILE, "--json", env=env)
        check(rc == 0, f"jit compile --json: {rc} {err!r}")
        if rc == 0:
            r = json.loads(out)
            check(r["symbol"].startswith("_Z") and r["arch"] == "sm_90a" and r["cache"] == "miss" and
                  r["output"] == "cubin" and r["resources"]["max_threads"] == 128 and r["dumped"] is None,
                  f"jit compile --json: {r}")
        rc, out, err = run("cache", "stats", "--json", env=env)
        check(rc == 0 and json.loads(out) == {"folder": d, "disk_cache_enabled": True, "entries": 1, "valid": 1,
                                             "damaged": 0, "bytes": json.loads(out)["bytes"], "format": 1},
              f"cache stats --json: {rc} {out!r} {err!r}")
        rc, out, err = run("cache", "list", "--json", env=env)
        entries = json.loads(out) if rc == 0 else []
        check(rc == 0 and len(entries) == 1 and entries[0]["valid"] and entries[0]["kernel"].startswith("cute_dsl_jit_test::scale<"),
              f"cache list --json: {rc} {out!r} {err!r}")
        open(os.path.join(d, "0" * 32 + ".cdk"), "w").write('"quote" and \\ backslash')
        rc, out, _ = run("cache", "list", "--json", env=env)
        check(rc == 0 and len(json.loads(out)) == 2, f"cache list --json with a damaged entry: {rc} {out!r}")
        rc, _, err = run("cache", "stats", "--bogus", env=env)
        check(rc == 2 and err.startswith("ERROR: unknown argument '--bogus'"), f"cache stats --bogus: {rc} {err!r}")


def case_layout_json():
    import json
    rc, out, err = run("layout", "--json", "logical_divide((8,4):(1,8),[2:1,2])")
    check(rc == 0 and err == "", f"layout --json: {rc} {out!r} {err!r}")
    if rc == 0:
        check(json.loads(out) == {"expression": "logical_divide((8,4):(1,8),[2:1,2])", "kind": "layout",
                                  "text": "((2,4),(2,2)):((1,2),(8,16))", "shape": [[2, 4], [2, 2]],
                                  "stride": [[1, 2], [8, 16]], "size": 32, "cosize": 32, "rank": 2, "depth": 2},
              f"layout --json: {out!r}")
    rc, out, _ = run("layout", "--json", "size(8:1)")
    check(rc == 0 and json.loads(out)["kind"] == "integer" and json.loads(out)["value"] == 8, f"integer: {out!r}")
    rc, out, _ = run("layout", "--json", "8:1")
    check(rc == 0 and json.loads(out)["shape"] == 8 and json.loads(out)["stride"] == 1, f"rank-1 leaf: {out!r}")
    rc, out, _ = run("layout", "--json", "[2:1,(2,2):(1,8)]")
    r = json.loads(out) if rc == 0 else {}
    check(r.get("kind") == "tiler" and [m["shape"] for m in r["modes"]] == [2, [2, 2]] and
          r["modes"][1]["stride"] == [1, 8], f"tiler: {rc} {out!r}")
    rc, out, _ = run("layout", "--json", "--table", "(2,2):(1,2)")
    check(rc == 0 and json.loads(out)["table"] == run("layout", "--table", "(2,2):(1,2)")[1], f"--table: {out!r}")
    # A failure: the usual ERROR line on stderr, nothing on stdout, status 1.
    rc, out, err = run("layout", "--json", "composition(4:1)")
    check(rc == 1 and out == "" and one_error(err), f"failure: {rc} {out!r} {err!r}")
    # Batch: one object per line; a failing line carries "error"; quotes and backslashes escaped.
    rc, out, err = run("layout", "--batch", "--json", stdin='4:1\nbad"\\input\ncosize(4:2)\n')
    lines = [json.loads(line) for line in out.splitlines()] if out else []
    check(rc == 1 and len(lines) == 3 and lines[0]["text"] == "4:1" and lines[1]["expression"] == 'bad"\\input' and
          "error" in lines[1] and lines[2]["value"] == 7, f"--batch --json: {rc} {out!r} {err!r}")


def case_layout_json_without_jit():
    rc, out, err = run("layout", "--json", "4:1")
    check(rc == 2 and out == "" and err.startswith("ERROR: --json needs a cute-dsl built with the JIT"),
          f"--json without the JIT: {rc} {out!r} {err!r}")


def case_cache_environment():
    with tempfile.TemporaryDirectory() as d:
        rc, out, err = run("cache", "stats", env={"CUTE_DSL_CACHE_DIR": d, "CUTE_DSL_DISABLE_FILE_CACHE": "1"})
        check(rc == 0 and f"folder:   {d} (disk cache disabled by CUTE_DSL_DISABLE_FILE_CACHE)" in out,
              f"stats with the disk cache off: {rc} {out!r} {err!r}")
        rc, out, err = run("cache", "stats", env={"CUTE_DSL_CACHE_DIR": d, "CUTE_DSL_DISABLE_FILE_CACHE": "false"})
        check(rc == 0 and f"folder:   {d}\n" in out and err == "", f"DISABLE_FILE_CACHE=false: {rc} {out!r} {err!r}")
        missing = os.path.join(d, "missing")
        for sub in ("stats", "list", "clear"):
            rc, out, err = run("cache", sub, "--dir", missing)
            check(rc == 1 and out == "" and f"ERROR: the cache folder {missing} does not exist" in err,
                  f"cache {sub} of a missing folder: {rc} {out!r} {err!r}")
        rc, out, err = run("cache", "stats", env={"CUTE_DSL_CACHE_DIR": d, "CUTE_DSL_CACHE_MAX_BYTES": "-1"})
        check(rc == 0 and "CUTE_DSL_CACHE_MAX_BYTES='-1' is not a byte count" in err, f"MAX_BYTES=-1: {rc} {err!r}")


CASES = {name[len("case_"):]: fn for name, fn in globals().items() if name.startswith("case_")}

if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[2] not in CASES:
        sys.exit(f"usage: tool_test.py BINARY {{{','.join(CASES)}}}")
    CASES[sys.argv[2]]()
    for f in failures:
        print("FAIL:", f)
    print(f"{sys.argv[2]}: {len(failures)} failure(s)")
    sys.exit(1 if failures else 0)
