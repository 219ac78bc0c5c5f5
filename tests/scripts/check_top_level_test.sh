#!/usr/bin/env bash
# scripts/check-top-level.sh on a scratch copy of the top level: the allowed names pass, a
# fuzzer's crash file (tracked or not yet) is refused by name.
set -euo pipefail
src=$1
check=$src/scripts/check-top-level.sh
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

git -C "$scratch" init -q
for name in .ci .clang-format .gitignore CMakeLists.txt README.md core tests; do
  if [[ "$name" == .* || "$name" == *.* ]]; then echo x >"$scratch/$name"; else mkdir -p "$scratch/$name" && echo x >"$scratch/$name/f"; fi
done
# .ci is a folder in the repository; a file of that name is as good for the check.
git -C "$scratch" add -A
bash "$check" "$scratch" >/dev/null || fail "allowed names were refused"

echo crash >"$scratch/crash-6569ece9911ea25acf0196edc66cb5dc63f372ae"
if out=$(bash "$check" "$scratch" 2>&1); then fail "an untracked crash file passed"; fi
grep -q "'crash-6569ece9911ea25acf0196edc66cb5dc63f372ae' is not expected" <<<"$out" ||
  fail "the crash file is not named: $out"
git -C "$scratch" add -A
if bash "$check" "$scratch" >/dev/null 2>&1; then fail "a tracked crash file passed"; fi

# The real repository passes.
bash "$check" "$src" || fail "the repository's own top level has a stray file"
echo "ok"
