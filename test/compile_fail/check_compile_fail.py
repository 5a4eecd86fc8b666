#!/usr/bin/env python3
"""One compile-fail test: the source must FAIL to compile with the expected text in the
diagnostics, and must compile cleanly with -DCUTE_DSL_COMPILE_FAIL_CONTROL (the same file with
the offending line replaced by a valid one), so that the test can fail for the right reason only.

The expected text is the source's line `// EXPECT: <text>` (several lines allowed, all required).

usage: check_compile_fail.py COMPILER INCLUDE_DIR SOURCE [extra compiler flags...]
"""
import re
import subprocess
import sys


def main():
    compiler, include_dir, source, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    expected = [m.group(1).strip() for m in re.finditer(r'^// EXPECT: (.*)$', open(source).read(), re.M)]
    if not expected:
        print(f'{source}: no "// EXPECT:" line')
        return 2
    base = [compiler, '-std=c++20', '-fsyntax-only', f'-I{include_dir}', *extra, source]

    control = subprocess.run(base + ['-DCUTE_DSL_COMPILE_FAIL_CONTROL'], capture_output=True, text=True)
    if control.returncode != 0:
        print('the control build (-DCUTE_DSL_COMPILE_FAIL_CONTROL) does not compile:\n' + control.stderr[-4000:])
        return 1

    run = subprocess.run(base, capture_output=True, text=True)
    if run.returncode == 0:
        print('expected a compile error, but the source compiled')
        return 1
    # Compilers may wrap or quote; compare with runs of whitespace collapsed.
    diagnostics = ' '.join(run.stderr.split())
    missing = [e for e in expected if ' '.join(e.split()) not in diagnostics]
    if missing:
        print('the compile error does not contain:\n  ' + '\n  '.join(missing) + '\n--- diagnostics ---\n' + run.stderr[-4000:])
        return 1
    print(f'ok: fails with {expected}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
