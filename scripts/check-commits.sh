#!/usr/bin/env bash
# Checks the subjects of the commits after BASE: each at most 72 characters (details go in the
# body). Usage: scripts/check-commits.sh [BASE]     (CI runs it without BASE, from .ci/run)
#
# Without BASE it checks the commits after adf356b: 143 subjects before it are longer than 72
# characters and history is not rewritten, so the rule holds from the commit where it was
# adopted. Works on a clean clone however it was made: a detached HEAD checks what HEAD
# reaches; a shallow clone that lacks BASE checks the commits it has that were committed after
# BASE (its commit time is below), and says so; outside a git checkout it says it checked
# nothing. It always prints what it checked.
set -euo pipefail
cd "$(dirname "$0")/.."

readonly default_base=adf356bf5d7c0c699f113a34d050af67f1a8f753
readonly default_base_time=2026-11-24T10:27:57+00:00  # its committer date, for shallow clones
readonly max=72
# Subjects merged before this check ran in CI, kept as history is not rewritten; each names
# the reason. Nothing is added here for a commit made after the check was wired.
readonly grandfathered="22c6d9be40fb  76 characters, merged from a branch the same hour the check was wired"

if (($# > 1)); then
  echo "usage: scripts/check-commits.sh [BASE]" >&2
  exit 2
fi
base=${1:-$default_base}

if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "check-commits: not a git checkout: no commit subjects checked"
  exit 0
fi
head=$(git rev-parse --short=12 HEAD)
where="HEAD $head"
git symbolic-ref -q HEAD >/dev/null || where="detached HEAD $head"

if git rev-parse -q --verify "$base^{commit}" >/dev/null; then
  range=("$base..HEAD")
  what="the commits after ${base:0:12}"
elif [[ -z ${1:-} && $(git rev-parse --is-shallow-repository) == true ]]; then
  # The base is beyond the shallow clone's depth: every commit it has after the base's time.
  range=(--since="$default_base_time" HEAD)
  what="the commits of this shallow clone made after ${base:0:12} ($default_base_time; the base itself is not fetched)"
else
  echo "check-commits: BASE '$base' is not a commit in this repository" >&2
  exit 2
fi

checked=0
bad=0
while IFS=$'\t' read -r hash subject; do
  checked=$((checked + 1))
  if ((${#subject} > max)) && grep -q "^${hash:0:12} " <<<"$grandfathered"; then
    echo "check-commits: ${hash:0:12} subject is ${#subject} characters, listed as grandfathered"
  elif ((${#subject} > max)); then
    echo "check-commits: ${hash:0:12} subject is ${#subject} characters (at most $max): $subject"
    bad=$((bad + 1))
  fi
done < <(git log --format='%H%x09%s' "${range[@]}")

echo "check-commits: $checked subject(s) checked, $what up to $where: $bad over $max characters"
((bad == 0))
