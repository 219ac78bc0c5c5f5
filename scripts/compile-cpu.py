#!/usr/bin/env python3
"""CPU time of compiling a sample of the tree, without ccache, per set of extra flags.

Compiles every K-th translation unit of a build's compile_commands.json (sorted by path) with
its own command line, once per variant: "base" as configured, or "+FLAGS" appended (the last
-g or -O wins). Prints user+sys CPU seconds per unit and the totals; the output goes to a
scratch object, never into the build. CPU time, unlike wall time, stays meaningful on a busy
machine (docs/testing.md: how long CI takes).

  scripts/compile-cpu.py build/compile_commands.json 8 base +-g1
"""
import json
import os
import resource
import shlex
import subprocess
import sys
import tempfile


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    units = json.load(open(sys.argv[1]))
    step = int(sys.argv[2])
    variants = sys.argv[3:]
    sample = sorted(units, key=lambda e: e["file"])[::step]
    totals = {v: 0.0 for v in variants}
    env = dict(os.environ, CCACHE_DISABLE="1")
    with tempfile.TemporaryDirectory() as scratch:
        for unit in sample:
            args = shlex.split(unit["command"]) if "command" in unit else list(unit["arguments"])
            args[args.index("-o") + 1] = os.path.join(scratch, "unit.o")
            row = []
            for v in variants:
                extra = v[1:].split() if v.startswith("+") else []
                before = cpu_seconds()
                subprocess.run(args + extra, cwd=unit["directory"], env=env, check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                spent = cpu_seconds() - before
                totals[v] += spent
                row.append(f"{spent:.2f}")
            print(unit["file"], *row, flush=True)
    print(f"TOTAL {len(sample)} of {len(units)} units:",
          *[f"{v}={t:.1f} s" for v, t in totals.items()])


if __name__ == "__main__":
    main()
