#!/usr/bin/env bash
# Every rule example in docs/rules.md loads: each fenced block opened with "```yaml rule-example"
# is written to a file and checked with `feedcheck rules validate`, whose verdict must be a plain
# "valid" (no warning), with exit 0. A block opened with "```yaml rule-example expect=R104" shows
# a mistake: validate must report that code (as error or warning) and must not say plain valid.
# Usage: check_rule_examples.sh FEEDCHECK DOCS_RULES_MD WORK_DIR
set -euo pipefail
feedcheck=$1 doc=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
# Split the examples out: example-N.yaml, and example-N.expect holding the expected code if any.
awk -v dir="$work" '
  /^```yaml rule-example/ {
    n++; file = sprintf("%s/example-%02d.yaml", dir, n); inblock = 1
    printf "%d\n", NR > sprintf("%s/example-%02d.line", dir, n)
    if (match($0, /expect=R[0-9]+/))
      print substr($0, RSTART + 7, RLENGTH - 7) > sprintf("%s/example-%02d.expect", dir, n)
    printf "" > file
    next
  }
  inblock && /^```/ { inblock = 0; close(file); next }
  inblock { print > file }
' "$doc"
shopt -s nullglob
examples=("$work"/example-*.yaml)
if ((${#examples[@]} == 0)); then
  echo "$doc: no \`\`\`yaml rule-example blocks found"
  exit 1
fi
failed=0
for example in "${examples[@]}"; do
  base=${example%.yaml}
  line=$(cat "$base.line")
  status=0
  output=$("$feedcheck" rules validate "$example" 2>&1) || status=$?
  if [[ -f "$base.expect" ]]; then
    code=$(cat "$base.expect")
    if grep -q "\[$code\]" <<<"$output" && ! grep -qx "Verdict: VALID" <<<"$output"; then
      echo "ok   $doc:$line reports $code as documented"
    else
      echo "FAIL $doc:$line should report $code; rules validate said (exit $status):"
      echo "$output"
      failed=1
    fi
  elif ((status == 0)) && grep -qx "Verdict: VALID" <<<"$output"; then
    echo "ok   $doc:$line loads"
  else
    echo "FAIL $doc:$line does not load cleanly (exit $status):"
    echo "$output"
    failed=1
  fi
done
echo "${#examples[@]} rule examples checked"
exit $failed
