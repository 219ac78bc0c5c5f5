#!/usr/bin/env zsh
# The zsh completion (completion/_feedcheck) in a real interactive zsh driven through a
# pseudo-terminal (zsh/zpty): compinit finds it on fpath as an installed one would be, a TAB is
# typed after each partial command line, and the line zsh completed is read back.
# usage: completion_zsh_test.zsh SOURCE_DIR BUILD_DIR
emulate -L zsh
zmodload zsh/zpty || { print -u2 "FAIL: zsh/zpty is not available"; exit 1 }
src=$1 bin=$2
failures=0

# Types $1 and a TAB, then prefixes the edited line with a marker and runs it as a print, so the
# completed line comes back as one "MARK:..." output line (without the space zsh adds after a
# whole word: it drops that when the line is run).
completed() {
  zpty -b z "zsh -f -i"
  zpty -w z "PS1='> '; PATH=${(q)bin}:\$PATH; fpath=(${(q)src}/completion \$fpath); autoload -U compinit; compinit -u -D; unsetopt beep"
  zpty -w -n z "$1"$'\t'
  sleep 0.5
  zpty -w -n z $'\x01print -r -- MARK:\x05\n'
  local out="" line deadline=$((SECONDS + 10))
  while ((SECONDS < deadline)); do
    zpty -r -t z line && out+=$line || sleep 0.1
    [[ $out == *$'\n'MARK:* ]] && [[ ${out##*$'\n'MARK:} == *$'\n'* ]] && break
  done
  zpty -d z
  out=${out//$'\r'/}
  local -a marked=(${(M)${(f)out}:#MARK:*})
  print -r -- "${marked[-1]#MARK:}"
}

expect() {
  local typed=$1 want=$2 got
  got=$(completed "$typed")
  if [[ $got == "$want" ]]; then
    print -r -- "ok: '$typed' -> '$got'"
  else
    print -ru2 -- "FAIL: '$typed' completes to '$got', not '$want'"
    failures=$((failures + 1))
  fi
}

expect "feedcheck eg" "feedcheck egress"
expect "feedcheck --json post" "feedcheck --json postmortem"
expect "feedcheck probe th" "feedcheck probe throughput"
expect "feedcheck rules va" "feedcheck rules validate"
expect "feedcheck probe throughput --conc" "feedcheck probe throughput --concurrency"
expect "feedcheck probe smallfiles --create" "feedcheck probe smallfiles --create-test-data"
expect "feedcheck --fail-on w" "feedcheck --fail-on warning"
expect "feedcheck advise --env-format s" "feedcheck advise --env-format shell"
expect "feedcheck lint x.yml -f s" "feedcheck lint x.yml -f sarif"
# A flag of another command is not offered: the line stays as typed.
expect "feedcheck egress --cache" "feedcheck egress --cache"
# A file flag completes file names.
mkdir -p ${TMPDIR:-/tmp}/fc-zsh-$$ && : > ${TMPDIR:-/tmp}/fc-zsh-$$/only-report.json
expect "feedcheck report ${TMPDIR:-/tmp}/fc-zsh-$$/only" "feedcheck report ${TMPDIR:-/tmp}/fc-zsh-$$/only-report.json"
rm -rf ${TMPDIR:-/tmp}/fc-zsh-$$
((failures == 0)) || exit 1
