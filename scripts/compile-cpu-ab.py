#!/usr/bin/env python3
"""CPU time of compiling the same units under two build configurations, A and B, alternately.

Takes every K-th unit (sorted by path) that both builds' compile_commands.json hold, compiles it
with A's command line, then B's, without ccache, into a scratch object, and prints user+sys CPU
seconds per unit and per top folder. CPU time, unlike wall time, stays comparable on a busy
machine, and alternating puts both under the same load. B's precompiled headers (if any) must
be built first (ninja -C B TARGET/cmake_pch.hxx.pch or .gch); their own cost is printed apart by
the caller (docs/testing.md: compile time).

  scripts/compile-cpu-ab.py build-old/compile_commands.json build/compile_commands.json 4
  scripts/compile-cpu-ab.py A.json B.json 3 '^(tests|cli)/'    # only units whose path matches
"""
import collections
import json
import os
import re
import resource
import shlex
import subprocess
import sys
import tempfile


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def commands(path):
    """Each unit's command line and folder, by its path relative to the source tree, so two
    checkouts of the tree (an old commit in a worktree, say) compare unit by unit."""
    entries = json.load(open(path))
    root = os.path.commonpath([e["file"] for e in entries])
    units = {}
    for unit in entries:
        args = shlex.split(unit["command"]) if "command" in unit else list(unit["arguments"])
        units[os.path.relpath(unit["file"], root)] = (args, unit["directory"])
    return units


def compile_cpu(args, directory, scratch):
    args = list(args)
    args[args.index("-o") + 1] = os.path.join(scratch, "unit.o")
    before = cpu_seconds()
    run = subprocess.run(args, cwd=directory, env=dict(os.environ, CCACHE_DISABLE="1"),
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return cpu_seconds() - before if run.returncode == 0 else None


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    a, b, step = commands(sys.argv[1]), commands(sys.argv[2]), int(sys.argv[3])
    only = re.compile(sys.argv[4] if len(sys.argv) == 5 else "")
    sample = sorted(f for f in set(a) & set(b) if only.search(f))[::step]
    by_folder = collections.defaultdict(lambda: [0.0, 0.0, 0])
    with tempfile.TemporaryDirectory() as scratch:
        for f in sample:
            ta = compile_cpu(*a[f], scratch)
            tb = compile_cpu(*b[f], scratch)
            rel = f
            if ta is None or tb is None:  # a unit one configuration cannot compile: left out
                print(f"{'failed':>15}  {rel}", flush=True)
                continue
            parts = rel.split(os.sep)
            folder = os.path.join(*parts[:2]) if parts[0] == "tests" else parts[0]
            row = by_folder[folder]
            row[0] += ta
            row[1] += tb
            row[2] += 1
            print(f"{ta:7.2f} {tb:7.2f}  {rel}", flush=True)
    print(f"\n{'folder':22} {'units':>5} {'A s':>8} {'B s':>8}  B/A")
    ta = tb = 0.0
    for folder, (sa, sb, n) in sorted(by_folder.items()):
        print(f"{folder:22} {n:5} {sa:8.1f} {sb:8.1f}  {sb / sa:.2f}")
        ta, tb = ta + sa, tb + sb
    print(f"{'all':22} {len(sample):5} {ta:8.1f} {tb:8.1f}  {tb / ta:.2f}")


if __name__ == "__main__":
    main()
