#!/usr/bin/env bash
# Small-object request rate, feedcheck vs wrk, side by side: nginx on loopback serving a 4 KiB
# file, 4 KiB ranged GETs (`Range: bytes=0-4095`) on 1, 4 and 16 keep-alive connections.
#   wrk -t1 -cN -dS -H 'Range: bytes=0-4095' URL/4k.bin
#   feedcheck probe latency URL/4k.bin --concurrency N --requests R --head-requests 0
#     --new-connections 0 --json          (R = what wrk did in the same round, so both run S s)
# Both drive every connection from one thread. Each round runs wrk then feedcheck; ROUNDS
# rounds (default 3) per connection count, and the ratios are taken round by round.
# Request rate: wrk's "Requests/sec"; the probe's probe.latency.requests_per_s (its measured
# GETs, warm-up excluded). CPU per request: user + system of the whole process from time(1)
# over every request it sent, for both tools (the probe's own
# probe.latency.cpu_us_per_request, measured phase only, is printed beside it), and which HTTP
# engine carried the probe's GETs (probe.latency.http_engine: raw, or libcurl behind a proxy).
# TLS=1: the same over nginx's https port (PORT+1, its self-signed certificate trusted by the
# probe with --ca-file; wrk does not verify), one connection by default, plus curl's CPU per
# request: one curl process fetching the URL R times on one kept-alive connection (a --config
# file of R urls), user + system from time(1) over R.
# Usage: scripts/bench-requests.sh [BUILD_DIR] [PORT]     (defaults: build 18080)
# Run it under `nice -n -10` on a shared machine; the load average is printed on each line.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
port=${2:-18080}
rounds=${ROUNDS:-3}
seconds=${SECONDS_PER_RUN:-3}
tls=${TLS:-0}
conn_counts=${CONNECTIONS:-"1 4 16"}
[[ $tls == 1 ]] && conn_counts=${CONNECTIONS:-1}
feedcheck=${FEEDCHECK:-$build/feedcheck}
run=$(mktemp -d /tmp/feedcheck-bench-req.XXXXXX)
trap '"$root/scripts/nginx.sh" stop "$port" "$run/nginx" >/dev/null 2>&1 || true; rm -rf "$run"' EXIT

"$root/scripts/nginx.sh" start "$port" "$run/nginx"
url="http://127.0.0.1:$port/4k.bin"
tls_args=()
if [[ $tls == 1 ]]; then
  url="https://127.0.0.1:$((port + 1))/4k.bin"
  tls_args=(--ca-file "$run/nginx/tls/cert.pem")
fi
load() { cut -d' ' -f1 /proc/loadavg; }
mmm() { sort -g | awk '{a[NR]=$1} END {printf "%8.3f / %8.3f / %8.3f", a[1], a[int((NR+1)/2)], a[NR]}'; }
# A fact of the probe's JSON; when missing, the probe's status and message go to stderr.
fact() {
  python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
facts = d["evidence"]["facts"] if "evidence" in d else d["facts"]
v = [f["value"] for f in facts if f["key"] == sys.argv[2]]
if not v:
    r = d.get("result", d.get("probe", {}))
    sys.exit("feedcheck: no %s (%s: %s)" % (sys.argv[2], r.get("status"), r.get("message", "")))
print(v[0])
PY
}

echo "feedcheck: $feedcheck"
for c in $conn_counts; do
  : >"$run/wrk_rate" && : >"$run/fc_rate" && : >"$run/rate_ratio"
  : >"$run/wrk_cpu" && : >"$run/fc_cpu" && : >"$run/fc_cpu_probe" && : >"$run/cpu_ratio"
  : >"$run/curl_cpu" && : >"$run/curl_ratio"
  loads=""
  for _ in $(seq 1 "$rounds"); do
    loads="$loads $(load)"
    /usr/bin/time -o "$run/wrk.time" -f '%U %S' \
      wrk -t1 -c"$c" -d"${seconds}s" -H "Range: bytes=0-4095" "$url" >"$run/wrk.out"
    w_rate=$(awk '/^Requests\/sec/ {print $2}' "$run/wrk.out")
    w_reqs=$(awk '/requests in/ {print $1}' "$run/wrk.out")
    w_cpu=$(awk -v n="$w_reqs" '{printf "%.3f", ($1 + $2) * 1e6 / n}' "$run/wrk.time")
    requests=$(awk -v r="$w_rate" -v s="$seconds" 'BEGIN {printf "%d", r * s}')
    /usr/bin/time -o "$run/fc.time" -f '%U %S' \
      "$feedcheck" probe latency "$url" "${tls_args[@]}" --concurrency "$c" --requests "$requests" \
      --head-requests 0 --new-connections 0 --max-requests $((requests + 1000)) \
      --duration 60s --json >"$run/fc.json" 2>/dev/null || true
    f_rate=$(fact "$run/fc.json" probe.latency.requests_per_s)
    f_sent=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(int(d.get('result', d.get('probe'))['requests']))" "$run/fc.json" 2>/dev/null ||
      echo "$requests")
    f_cpu=$(awk -v n="$f_sent" '{printf "%.3f", ($1 + $2) * 1e6 / n}' "$run/fc.time")
    echo "$w_rate" >>"$run/wrk_rate"
    echo "$f_rate" >>"$run/fc_rate"
    echo "$w_cpu" >>"$run/wrk_cpu"
    echo "$f_cpu" >>"$run/fc_cpu"
    fact "$run/fc.json" probe.latency.cpu_us_per_request >>"$run/fc_cpu_probe"
    engine=$(fact "$run/fc.json" probe.latency.http_engine 2>/dev/null || echo "?")
    awk -v a="$f_rate" -v b="$w_rate" 'BEGIN {printf "%.4f\n", a / b}' >>"$run/rate_ratio"
    awk -v a="$f_cpu" -v b="$w_cpu" 'BEGIN {printf "%.4f\n", a / b}' >>"$run/cpu_ratio"
    if [[ $tls == 1 ]]; then
      { for _ in $(seq 1 "$requests"); do printf 'url = "%s"\noutput = "/dev/null"\n' "$url"; done; } \
        >"$run/curl.cfg"
      /usr/bin/time -o "$run/curl.time" -f '%U %S' curl -s --cacert "$run/nginx/tls/cert.pem" \
        -H "Range: bytes=0-4095" --config "$run/curl.cfg"
      c_cpu=$(awk -v n="$requests" '{printf "%.3f", ($1 + $2) * 1e6 / n}' "$run/curl.time")
      echo "$c_cpu" >>"$run/curl_cpu"
      awk -v a="$f_cpu" -v b="$c_cpu" 'BEGIN {printf "%.4f\n", a / b}' >>"$run/curl_ratio"
    fi
  done
  echo "== $c connection(s)$([[ $tls == 1 ]] && echo ' over TLS'), 4 KiB ranged GETs, ${seconds}s x $rounds rounds (load average:$loads; engine $engine)"
  echo "                         min /   median /      max"
  echo "wrk requests/s       $(mmm <"$run/wrk_rate")"
  echo "feedcheck requests/s $(mmm <"$run/fc_rate")"
  echo "rate ratio           $(mmm <"$run/rate_ratio")   (feedcheck / wrk; target >= 0.9)"
  echo "wrk CPU us/request   $(mmm <"$run/wrk_cpu")   (time(1), whole process)"
  echo "feedcheck CPU us/req $(mmm <"$run/fc_cpu")   (time(1), whole process)"
  echo "  probe's own figure $(mmm <"$run/fc_cpu_probe")   (probe.latency.cpu_us_per_request)"
  echo "CPU ratio            $(mmm <"$run/cpu_ratio")   (feedcheck / wrk; target <= 1.3)"
  if [[ $tls == 1 ]]; then
    echo "curl CPU us/request  $(mmm <"$run/curl_cpu")   (time(1), one connection, R urls)"
    echo "CPU ratio vs curl    $(mmm <"$run/curl_ratio")   (feedcheck / curl)"
  fi
done
