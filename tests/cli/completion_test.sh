#!/usr/bin/env bash
# The bash completion (completion/feedcheck.bash) against the built binary: commands,
# subcommands, each command's flags as its --help lists them, and fixed flag values.
# usage: completion_test.sh SOURCE_DIR BUILD_DIR
# Not -e: completion functions run in an interactive shell, where a grep that finds nothing is
# no error.
set -uo pipefail
source "$1/completion/feedcheck.bash"
PATH="$2:$PATH"
fail() { echo "FAIL: $*" >&2 && exit 1; }
expect() {
  local want=$1
  shift
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _feedcheck
  [[ " ${COMPREPLY[*]} " == *" $want "* ]] || fail "'$*' completes to '${COMPREPLY[*]}', not $want"
  echo "ok: '$*' -> ${COMPREPLY[*]}"
}
expect egress feedcheck eg
expect postmortem feedcheck --json post
expect throughput feedcheck probe th
expect validate feedcheck rules va
expect --sku feedcheck egress --sk
expect --concurrency feedcheck probe throughput --conc
expect --env-format feedcheck advise --env
expect --create-test-data feedcheck probe smallfiles --create
expect warning feedcheck --fail-on w
expect shell feedcheck advise --env-format s
expect html feedcheck postmortem -f h
expect sarif feedcheck lint x.yml -f s
# A flag of another command is not offered.
COMP_WORDS=(feedcheck egress --cache)
COMP_CWORD=2
_feedcheck
[[ -z "${COMPREPLY[*]}" ]] || fail "egress offers ${COMPREPLY[*]} for --cache"
echo "ok: egress has no --cache*"
