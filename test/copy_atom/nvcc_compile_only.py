#!/usr/bin/env python3
"""nvcc as the compiler of test/compile_fail/check_compile_fail.py, for arch diagnostics.

nvcc has no -fsyntax-only, and a device-pass static_assert fires only when device code is
compiled, so this drops -fsyntax-only and compiles to an object in a temporary folder.
usage (as check_compile_fail.py calls it): nvcc_compile_only.py <flags...> --nvcc=<path to nvcc>
"""
import os
import subprocess
import sys
import tempfile


def main():
    nvcc = next((a.split('=', 1)[1] for a in sys.argv[1:] if a.startswith('--nvcc=')), 'nvcc')
    args = [a for a in sys.argv[1:] if a != '-fsyntax-only' and not a.startswith('--nvcc=')]
    with tempfile.TemporaryDirectory() as d:
        return subprocess.run([nvcc, *args, '-c', '-o', os.path.join(d, 'out.o')]).returncode


if __name__ == '__main__':
    sys.exit(main())
