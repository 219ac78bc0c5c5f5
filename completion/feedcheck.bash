# bash completion for feedcheck: commands, subcommands, each command's flags (read from its own
# --help, so they never go stale) and the values of the flags that take a fixed set.
# Installed to share/bash-completion/completions/feedcheck, where bash-completion finds it the
# first time `feedcheck` is completed; tests/cli/completion_test.sh checks it.
_feedcheck() {
  local cur prev
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD - 1]}
  local commands="egress plan probe cleanup advise lint rules facts report preflight postmortem fetch compare analyze version"
  # The command path typed so far: the command, and for probe, rules and facts their subcommand.
  local path=() word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    [[ $word == -* ]] && continue
    if ((${#path[@]} == 0)); then
      [[ " $commands " == *" $word "* ]] && path+=("$word")
    elif ((${#path[@]} == 1)) && [[ ${path[0]} == probe || ${path[0]} == rules || ${path[0]} == facts ]]; then
      path+=("$word")
    fi
  done
  case $prev in
    -f | --format) COMPREPLY=($(compgen -W "term json md html sarif" -- "$cur")); return ;;
    --fail-on) COMPREPLY=($(compgen -W "info warning critical never" -- "$cur")); return ;;
    --env-format) COMPREPLY=($(compgen -W "yaml shell python json" -- "$cur")); return ;;
    --auth) COMPREPLY=($(compgen -W "auto anonymous shared-key sas bearer managed-identity" -- "$cur")); return ;;
    --region) COMPREPLY=($(compgen -W "eastus eastus2 westus westus2 westus3 centralus southcentralus northeurope westeurope uksouth swedencentral japaneast australiaeast" -- "$cur")); return ;;
    -o | --output | --profile | --kb | --metrics | --gpu | --with | --key-file | --sas-file | --token-file | --ca-file)
      COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --rules | --cache-dir | --fetch-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
  esac
  if [[ $cur == -* ]]; then
    local flags
    flags=$("${COMP_WORDS[0]}" "${path[@]}" --help 2>/dev/null | grep -oE -- '(^|[ ,])--?[a-zA-Z][a-zA-Z0-9-]*' | tr -d ' ,' | sort -u)
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
    return
  fi
  if ((${#path[@]} == 0)); then
    COMPREPLY=($(compgen -W "$commands" -- "$cur"))
  elif ((${#path[@]} == 1)) && [[ ${path[0]} == probe ]]; then
    COMPREPLY=($(compgen -W "throughput latency list smallfiles disk nic" -- "$cur"))
  elif ((${#path[@]} == 1)) && [[ ${path[0]} == rules ]]; then
    COMPREPLY=($(compgen -W "list validate" -- "$cur"))
  elif ((${#path[@]} == 1)) && [[ ${path[0]} == facts ]]; then
    COMPREPLY=($(compgen -W "list" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _feedcheck feedcheck
