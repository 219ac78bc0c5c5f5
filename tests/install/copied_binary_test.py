#!/usr/bin/env python3
"""A copied `feedcheck` runs on its own: the knowledge base and the built-in rules are compiled in.

The binary is copied alone into an empty folder and, with FEEDCHECK_HOME unset, runs every
example of README.md that works offline: the commands of the "Which command for which job"
table and of its ```console blocks (so this test follows the README). Each must exit 0 or 1
(a finding), name no missing knowledge base (K301) and print what the build folder's binary
(with data/ and rules/ beside it) prints for the same command: the .deb, the build tree and a
copied binary behave the same. Then: facts still cite data/vm_sizes.yaml:LINE, and a
FEEDCHECK_HOME folder overrides the compiled-in file of the same name.
usage: copied_binary_test.py SOURCE_DIR BINARY
"""
import json
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

SHELL_SYNTAX = re.compile(r"[|<>&;{}$*`\\]")


def readme_commands(readme):
    """Every `feedcheck ...` command of the README's command table and console blocks."""
    commands = []
    for line in readme.splitlines():
        if line.startswith("|"):
            commands += re.findall(r"`(feedcheck [^`]*)`", line)
    commands += re.findall(r"^```console\n\$ (feedcheck [^\n]*)\n", readme, re.M)
    return commands


def offline(source, words):
    """The arguments with repository paths made absolute, or None when it needs a network,
    Azure ML (the az CLI) or a file the repository does not hold."""
    if SHELL_SYNTAX.search(" ".join(words)) or "--job" in words:
        return None
    if any(re.fullmatch(r"[A-Z][A-Z_]{2,}", w) for w in words):  # JOB_NAME, WORKSPACE, URL
        return None
    args = []
    for w in words[1:]:
        if "://" in w:
            return None
        looks_like_path = "/" in w or re.search(r"\.(ya?ml|json|csv|log)$", w)
        if looks_like_path and not w.startswith("-"):
            if not (source / w).exists():
                return None
            w = str(source / w)
        args.append(w)
    return args


def run(binary, args, cwd, env):
    proc = subprocess.run([str(binary)] + args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def main():
    source = pathlib.Path(sys.argv[1]).resolve()
    built = pathlib.Path(sys.argv[2]).resolve()
    failures = []
    env = {k: v for k, v in os.environ.items() if k != "FEEDCHECK_HOME"}
    env.update({"COLUMNS": "100", "NO_COLOR": "1"})
    with tempfile.TemporaryDirectory() as tmp:
        alone = pathlib.Path(tmp) / "bin"
        alone.mkdir()
        copied = alone / "feedcheck"
        shutil.copy2(built, copied)
        runs = 0
        for command in readme_commands((source / "README.md").read_text()):
            args = offline(source, shlex.split(command))
            if args is None:
                continue
            runs += 1
            outputs = []
            for which, binary in (("copied", copied), ("built", built)):
                cwd = pathlib.Path(tmp) / f"cwd-{which}-{runs}"
                cwd.mkdir()
                code, out, err = run(binary, args, cwd, env)
                written = sorted(p.name for p in cwd.iterdir())
                outputs.append((code, out, written))
                if which == "copied" and (code not in (0, 1) or "K301" in err):
                    failures.append(f"{command}: the copied binary exited {code}:\n{err}")
            if outputs[0] != outputs[1]:
                failures.append(f"{command}: the copied binary printed something else than the "
                                f"built one (exit {outputs[0][0]} vs {outputs[1][0]}, files "
                                f"{outputs[0][2]} vs {outputs[1][2]})")
        if runs < 6:
            failures.append(f"only {runs} offline README examples found; the parser lost them")

        # Provenance keeps the source file and line of the compiled-in text.
        code, out, err = run(copied, ["egress", "--sku", "Standard_ND96asr_v4", "--region",
                                      "eastus", "--json"], tmp, env)
        cited = re.findall(r"data/vm_sizes\.yaml:(\d+)", out)
        if code != 0 or not cited:
            failures.append(f"egress --json cites no data/vm_sizes.yaml:LINE (exit {code}):\n{err}")
        else:
            lines = (source / "data" / "vm_sizes.yaml").read_text().splitlines()
            line = lines[int(cited[0]) - 1] if int(cited[0]) <= len(lines) else ""
            if "ND96asr_v4" not in line and "nic" not in line:
                failures.append(f"data/vm_sizes.yaml:{cited[0]} is not the ND96asr_v4 row: {line}")
            json.loads(out)

        # A FEEDCHECK_HOME folder replaces the compiled-in file of the same name: a 50 Gbit/s NIC
        # for ND96asr_v4 (24 compiled in) gives floor(200 / 50) = 4 nodes at full rate.
        home = pathlib.Path(tmp) / "home"
        (home / "data").mkdir(parents=True)
        kb = (source / "data" / "vm_sizes.yaml").read_text()
        changed = re.sub(r"(name: Standard_ND96asr_v4\n(?:.*\n)*?\s*nic: )24 Gbit/s", r"\g<1>50 Gbit/s",
                         kb, count=1)
        if changed == kb:
            failures.append("could not give ND96asr_v4 another NIC in a copy of vm_sizes.yaml")
        (home / "data" / "vm_sizes.yaml").write_text(changed)
        for home_env, expected in ((dict(env, FEEDCHECK_HOME=str(home)), 4), (env, 8)):
            code, out, err = run(copied, ["egress", "--sku", "Standard_ND96asr_v4", "--region",
                                          "eastus", "--json"], tmp, home_env)
            if f'"full_rate_nodes": {expected}' not in out:
                failures.append(f"egress with FEEDCHECK_HOME={home_env.get('FEEDCHECK_HOME')} "
                                f"did not give {expected} nodes (exit {code}):\n{err}")

    for f in failures:
        print("FAIL:", f)
    if not failures:
        print(f"ok: {runs} README examples ran from a copied binary alone, as the built one")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
