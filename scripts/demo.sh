#!/usr/bin/env bash
# The README's main command: installs what is missing, builds, and runs feedcheck on its
# embedded default example: sizing on the guide's scenario; a pre-flight check against a local
# Azurite seeded with a synthetic dataset (many small files, a few large ones); a post-mortem of
# the bundled sample job's logs; an HTML report of each.
#
# The example is the Azure ML data-access guide's own scenario: 12 nodes of Standard_ND96asr_v4
# (8 x A100, 24 Gbit/s) reading 1 TB of 500 KB images from a standard account in East US.
#
# It installs and builds only what it runs (feedcheck and feedcheck-seed: 197 of the 381 build
# steps); scripts/test.sh, run afterwards, installs the rest and completes the same build folder.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${DEMO_OUT_DIR:-out}
mkdir -p "$out"
# The compiler and libraries first; Node and Azurite install while feedcheck compiles. The
# build's hundreds of lines go to a log: one line here, and its errors if it fails.
bash scripts/setup.sh --build-deps
bash scripts/setup.sh --demo >"$out/setup.log" 2>&1 &
setup=$!
echo "demo: building feedcheck (a few minutes the first time; log: $out/build.log)"
if ! bash scripts/build.sh --target feedcheck --target feedcheck-seed >"$out/build.log" 2>&1; then
  grep -E -A4 'error|FAILED|CMake Error' "$out/build.log" | head -80 >&2 || tail -40 "$out/build.log" >&2
  echo "demo: the build failed (the whole log: $out/build.log)" >&2
  exit 1
fi
if ! wait "$setup"; then
  tail -20 "$out/setup.log" >&2
  echo "demo: installing Node and Azurite failed (the whole log: $out/setup.log)" >&2
  exit 1
fi
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

# A pre-flight check against a local Azurite (loopback only, in-memory, removed on exit), seeded
# with a synthetic dataset: 2,000 images of 64 KiB in 20 directories and 4 shards of 64 MiB. The
# key is Azurite's published development key, not a secret.
port=${DEMO_AZURITE_PORT:-10700}
rundir="$out/.azurite"
bash scripts/azurite.sh start "$port" "$rundir"
trap 'bash scripts/azurite.sh stop "$port" "$rundir" >/dev/null 2>&1 || true' EXIT
export AZURE_STORAGE_ACCOUNT=devstoreaccount1
export AZURE_STORAGE_KEY='Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=='
dataset="http://127.0.0.1:$port/devstoreaccount1/training-data"
section "Seed a synthetic dataset into the local Azurite" \
  "${BUILD_DIR:-build}/feedcheck-seed" "$dataset" --small 2000 --small-bytes 64KiB --dirs 20 \
  --large 4 --large-bytes 64MiB
# preflight exits 1 when a finding reaches --fail-on; findings are the point of a demo.
# The cache disk is measured in out/.cache (one 256 MiB test file, removed afterwards); on a
# real node, point --cache-dir at the job's cache location (the local NVMe/temp disk).
mkdir -p "$out/.cache"
section "Pre-flight of the local emulator: can it feed 12 ND96asr_v4 nodes? (40 s budget)" \
  "$fc" preflight "$dataset" --sku Standard_ND96asr_v4 --nodes 12 --region eastus \
  --duration 40s --cache-dir "$out/.cache" --cache-test-bytes 256MiB \
  --fail-on never --format json -o "$out/preflight.json"
"$fc" report "$out/preflight.json" --format term
"$fc" report "$out/preflight.json" --format html -o "$out/preflight.html"

# A post-mortem of the bundled sample job: a 2-node download-mode job whose GPUs idled while the
# storage account (East US, 200 Gbit/s) throttled its egress. Logs, metrics and GPU samples are
# in the job folder. The pre-flight above measured another target (a local emulator, this
# machine's disk), so it stays out of the job's post-mortem: two reports, each about one thing.
job=tests/data/joblogs/job-demo
section "What did the sample job's logs, metrics and GPU samples say?" "$fc" analyze "$job"
section "Post-mortem of the sample job: which bottleneck, with what evidence? (its own logs)" \
  "$fc" postmortem "$job" --region eastus --nodes 2 --fail-on never \
  --format json -o "$out/postmortem.json"
"$fc" report "$out/postmortem.json" --format term
"$fc" report "$out/postmortem.json" --format html -o "$out/report.html"
printf '\nReports written (self-contained HTML: open them in any browser):\n'
printf '  %s  post-mortem of the sample job (its logs, metrics and GPU samples)\n' \
  "$(realpath "$out/report.html")"
printf '  %s  pre-flight of the local Azurite emulator on this machine\n' \
  "$(realpath "$out/preflight.html")"
