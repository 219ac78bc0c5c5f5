#!/usr/bin/env bash
# The README's main command: installs what is missing, builds, and runs feedcheck on its
# embedded default example: sizing on the guide's scenario, then a post-mortem of the bundled
# sample job logs ending in an HTML report.
#
# The example is the Azure ML data-access guide's own scenario: 12 nodes of Standard_ND96asr_v4
# (8 x A100, 24 Gbit/s) reading 1 TB of 500 KB images from a standard account in East US.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
fc="${BUILD_DIR:-build}/feedcheck"

section() { printf '\n\033[1m== %s ==\033[0m\n$ %s\n\n' "$1" "${*:2}"; "${@:2}"; }

section "How many nodes can one storage account feed? (East US today: 200 Gbit/s)" \
  "$fc" egress --sku Standard_ND96asr_v4 --region eastus --nodes 12
section "The guide's table, with its 120 Gbit/s assumption" \
  "$fc" egress --all --account-kind standard_gpv2_legacy_120
section "What does reading 1 TB of 500 KB files cost?" \
  "$fc" plan --bytes 1TB --mean-file-bytes 500KB --sku Standard_ND96asr_v4 --nodes 12 --region eastus
section "Listing 1,000 directories of 10,000 files: 2,001 requests (the guide says 1,001)" \
  "$fc" plan --bytes 1TB --dirs 1000 --files-per-dir 10000 --sku Standard_ND96asr_v4 --nodes 12 --region eastus

# A post-mortem of the bundled sample job: a 2-node download-mode job whose GPUs idled while the
# storage account throttled its egress. Logs, metrics and GPU samples are in the job folder.
job=tests/data/joblogs/job-demo
out=${DEMO_OUT_DIR:-out}
mkdir -p "$out"
section "What did the sample job's logs, metrics and GPU samples say?" "$fc" analyze "$job"
# postmortem exits 1 when a finding reaches --fail-on; findings are the point of a demo.
section "Post-mortem: which bottleneck, with what evidence?" \
  "$fc" postmortem "$job" --fail-on never
"$fc" postmortem "$job" --fail-on never --format json -o "$out/postmortem.json"
"$fc" report "$out/postmortem.json" --format html -o "$out/report.html"
printf '\nReport written to %s (self-contained HTML: open it in any browser).\n' "$(realpath "$out/report.html")"
