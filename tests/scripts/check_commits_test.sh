#!/usr/bin/env bash
# scripts/check-commits.sh against scratch repositories: a long subject after BASE fails and is
# named, one before BASE does not count, a detached HEAD and a shallow clone without the base
# are checked (and say what they checked), a BASE that is no commit is a usage error.
# Usage: tests/scripts/check_commits_test.sh SOURCE_DIR
set -euo pipefail
src=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
long=$(printf 'x%.0s' {1..73})

export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.invalid
export GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.invalid
repo=$scratch/repo
git init -q "$repo"
mkdir "$repo/scripts"
cp "$src/scripts/check-commits.sh" "$repo/scripts/"
cd "$repo"
commit() { git commit -q --allow-empty -m "$1"; }
# Before the script's fixed base time (2026-11-24): a long subject that must not count.
GIT_COMMITTER_DATE=2020-01-01T00:00:00Z GIT_AUTHOR_DATE=2020-01-01T00:00:00Z commit "$long"
git add scripts && commit "base"
base=$(git rev-parse HEAD)
commit "a short subject"

out=$(bash scripts/check-commits.sh "$base") || fail "good subjects after BASE: $out"
grep -q "1 subject(s) checked" <<<"$out" || fail "count not said: $out"

commit "$long"
if out=$(bash scripts/check-commits.sh "$base"); then fail "73 characters passed: $out"; fi
grep -q "subject is 73 characters" <<<"$out" || fail "the long subject not named: $out"
grep -q "1 over 72" <<<"$out" || fail "summary: $out"

git checkout -q --detach HEAD~1
out=$(bash scripts/check-commits.sh "$base") || fail "detached HEAD: $out"
grep -q "detached HEAD" <<<"$out" || fail "detached HEAD not said: $out"
git checkout -q -

set +e
out=$(bash scripts/check-commits.sh no-such-commit 2>&1)
rc=$?
set -e
((rc == 2)) || fail "unknown BASE gave $rc: $out"

# A shallow clone lacks the fixed base: the commits it has from after the base's time count,
# the old long one (inside the depth) does not, the new long one does.
git checkout -q --detach HEAD~1  # drop the new long subject: base + short + old long visible
clone=$scratch/shallow
git clone -q --depth 3 "file://$repo" "$clone" 2>/dev/null
[[ $(git -C "$clone" rev-parse --is-shallow-repository) == true ]] || fail "clone not shallow"
out=$(bash "$clone/scripts/check-commits.sh") || fail "shallow clone: $out"
grep -q "shallow clone" <<<"$out" || fail "shallow not said: $out"
grep -q "2 subject(s) checked" <<<"$out" || fail "shallow count: $out"

# Not a git checkout (an unpacked tarball): says nothing was checked.
mkdir -p "$scratch/tar/scripts"
cp "$src/scripts/check-commits.sh" "$scratch/tar/scripts/"
out=$(GIT_CEILING_DIRECTORIES=$scratch bash "$scratch/tar/scripts/check-commits.sh") ||
  fail "outside git: $out"
grep -q "not a git checkout" <<<"$out" || fail "outside git not said: $out"
echo "check-commits: all cases pass"
