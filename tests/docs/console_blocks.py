#!/usr/bin/env python3
"""The docs' sample runs are what the binary prints today.

Every ```console block of README.md and docs/ whose first line is `$ feedcheck ...` (or
`$ build/feedcheck ...`) and that runs offline (no URL, no shell syntax, every file it names in the
repository) is run from the source folder with the built binary on a 100-column terminal (a pseudo-terminal,
so stdout and stderr come in the order written) without colour, and what it shows must equal the block's text after the `$` line. A line `[... what is left out]`
stands for any run of lines. FEEDCHECK_UPDATE_DOCS=1 rewrites the blocks without such a line
(the others are edited by hand). usage: console_blocks.py SOURCE_DIR BINARY_DIR
"""
import difflib
import fcntl
import os
import pathlib
import re
import pty
import shlex
import struct
import subprocess
import sys
import termios

SHELL_SYNTAX = re.compile(r"[|<>&;{}$*`\\]")
BLOCK = re.compile(r"^```console\n(\$ [^\n]*)\n(.*?)^```$", re.M | re.S)
ELISION = re.compile(r"^\[\.\.\. [^\n]*\]$")


def matches(block, output):
    """The output is the block, each elision line standing for any run of lines."""
    lines = block.splitlines(True)
    if not any(ELISION.match(line) for line in lines):
        return block == output
    pattern = "".join("(?:.*\n)*?" if ELISION.match(line) else re.escape(line) for line in lines)
    return re.fullmatch(pattern, output) is not None


def runnable(source, words):
    """The block's arguments if it runs offline from the source folder, else None."""
    if not words or words[0] not in ("feedcheck", "build/feedcheck"):
        return None
    for w in words[1:]:
        if "://" in w:
            return None
        looks_like_path = "/" in w or re.search(r"\.(ya?ml|json|csv|log)$", w)
        if looks_like_path and not w.startswith("-") and not (source / w).exists():
            return None
    return words[1:]


def on_terminal(argv, cwd, env):
    """What a 100-column terminal shows: stdout and stderr in the order the program wrote them."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 100, 0, 0))
    attrs = termios.tcgetattr(follower)
    attrs[1] &= ~termios.ONLCR  # keep "\n" as written, not "\r\n"
    termios.tcsetattr(follower, termios.TCSANOW, attrs)
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=follower,
                            stderr=follower, close_fds=True)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the program closed its end
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    proc.wait(timeout=120)
    return b"".join(chunks).decode("utf-8", "replace")


def main():
    source, binary_dir = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    update = os.environ.get("FEEDCHECK_UPDATE_DOCS") == "1"
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1", TERM="dumb")
    env.pop("FEEDCHECK_COLOR", None)
    files = [source / "README.md"] + sorted((source / "docs").rglob("*.md"))
    checked, stale = 0, []
    for path in files:
        text = path.read_text()
        new_text, changed = text, False
        for m in BLOCK.finditer(text):
            command = m.group(1)[2:]
            if SHELL_SYNTAX.search(command):
                continue
            args = runnable(source, shlex.split(command))
            if args is None:
                continue
            output = on_terminal([str(binary_dir / "feedcheck")] + args, source, env)
            checked += 1
            if matches(m.group(2), output):
                continue
            where = f"{path.relative_to(source)}: $ {command}"
            if update and not any(ELISION.match(x) for x in m.group(2).splitlines()):
                new_text = new_text.replace(m.group(0), f"```console\n{m.group(1)}\n{output}```", 1)
                changed = True
                print(f"rewritten: {where}")
            else:
                stale.append(where)
                sys.stdout.writelines(difflib.unified_diff(
                    m.group(2).splitlines(True), output.splitlines(True),
                    f"{where} (the docs)", "what it prints now", n=1))
        if changed:
            path.write_text(new_text)
    print(f"console blocks: {checked} run, {len(stale)} stale")
    if stale and not update:
        print("stale (FEEDCHECK_UPDATE_DOCS=1 ctest -L docs rewrites them):", *stale, sep="\n  ")
        return 1
    return 0 if checked else 1


if __name__ == "__main__":
    sys.exit(main())
