#!/usr/bin/env bash
# Speed benchmarks of the HTTP probes against nginx on loopback, in one run:
#  1. throughput probe vs wrk, same connection count, same 4 MiB ranged GETs (target >= 0.9x);
#  2. latency probe p50 time to first byte on 4 KiB ranged GETs vs a bare libcurl loop
#     (target within 1.2x);
#  3. CPU-seconds per GB over TLS (nginx's HTTPS port), the probe vs curl, one connection each;
#  4. with KNEE=1 (root, namespaces): the auto sweep's knee over emulated 1 Gbit/s links at 0,
#     10 and 50 ms RTT, 3 sweeps each (scripts/bench-knee.sh, which also runs on its own).
# Usage: scripts/bench-probes.sh [BUILD_DIR] [PORT]   (defaults: build 18080)
# Needs a built feedcheck, nginx and wrk. Each measurement runs ROUNDS times (default 3),
# alternating tools, and the median is compared; the machine is shared, so medians matter.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
port=${2:-18080}
rounds=${ROUNDS:-3}
conns=${CONNECTIONS:-4}
seconds=${SECONDS_PER_RUN:-5}
run=$(mktemp -d /tmp/feedcheck-bench.XXXXXX)
trap '"$root/scripts/nginx.sh" stop "$port" "$run/nginx" >/dev/null 2>&1 || true; rm -rf "$run"' EXIT

"$root/scripts/nginx.sh" start "$port" "$run/nginx"
url="http://127.0.0.1:$port"
g++ -O2 -std=c++20 "$root/tests/bench/curl_latency_loop.cpp" -o "$run/curl_latency_loop" -lcurl

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
fact() { python3 -c "import json,sys; d=json.load(sys.stdin); print([f['value'] for f in d['evidence']['facts'] if f['key']=='$1'][0])"; }

# wrk's "Transfer/sec: 3.17GB" in bytes/s.
wrk_bytes_per_s() {
  wrk -t2 -c"$conns" -d"${seconds}s" -H "Range: bytes=0-4194303" "$url/256m.bin" |
    awk '/Transfer\/sec/ {v=$2; u=v; gsub(/[0-9.]/,"",u); gsub(/[A-Za-z]/,"",v);
         m=1; if(u=="KB")m=1024; if(u=="MB")m=1048576; if(u=="GB")m=1073741824; print v*m}'
}
probe_bytes_per_s() {
  "$build/feedcheck" probe throughput "$url/256m.bin" --concurrency "$conns" \
    --duration "$seconds" --json 2>/dev/null | fact probe.throughput.gbps |
    awk '{print $1*1e9/8}'
}

echo "== throughput: $conns connections, 4 MiB ranged GETs, ${seconds}s x $rounds rounds"
: >"$run/wrk" && : >"$run/probe"
for _ in $(seq 1 "$rounds"); do
  wrk_bytes_per_s >>"$run/wrk"
  probe_bytes_per_s >>"$run/probe"
done
wrk_med=$(median <"$run/wrk")
probe_med=$(median <"$run/probe")
awk -v w="$wrk_med" -v p="$probe_med" 'BEGIN {
  printf "wrk      %.2f GB/s (median)\nfeedcheck %.2f GB/s (median)\nratio    %.2fx (target >= 0.9x)\n",
         w/1e9, p/1e9, p/w }'
paste "$run/probe" "$run/wrk" | awk '{ printf "%.4f\n", $1 / $2 }' | sort -g |
  awk '{a[NR]=$1} END {printf "ratio round by round: %.2f / %.2f / %.2f (min / median / max)\n", a[1], a[int((NR+1)/2)], a[NR]}'

echo "== latency: 4 KiB ranged GET, time to first byte p50, 2000 requests x $rounds rounds"
: >"$run/loop" && : >"$run/lat"
for _ in $(seq 1 "$rounds"); do
  "$run/curl_latency_loop" "$url/4k.bin" 2000 | sed 's/p50_ms=\([0-9.]*\).*/\1/' >>"$run/loop"
  "$build/feedcheck" probe latency "$url/4k.bin" --requests 2000 --head-requests 0 \
    --new-connections 0 --json 2>/dev/null | fact probe.latency.ttfb_p50_ms >>"$run/lat"
done
loop_med=$(median <"$run/loop")
lat_med=$(median <"$run/lat")
paste "$run/lat" "$run/loop" | awk '{ printf "%.4f\n", $1 / $2 }' | sort -g |
  awk '{a[NR]=$1} END {printf "ratio round by round: %.2f / %.2f / %.2f (min / median / max)\n", a[1], a[int((NR+1)/2)], a[NR]}'

awk -v l="$loop_med" -v p="$lat_med" 'BEGIN {
  printf "libcurl loop p50 %.1f us\nfeedcheck    p50 %.1f us\nratio        %.2fx (target <= 1.2x)\n",
         l*1000, p*1000, p/l }'

# TLS: nginx's HTTPS server on PORT+1 (scripts/nginx.sh), its self-signed certificate for
# 127.0.0.1 trusted as the CA by both tools. One connection each, 256 MiB: curl downloads the
# file, the probe reads it in 4 MiB ranges for $seconds s. CPU-seconds per GB of the whole
# process (curl: user + sys from time(1); probe: its probe.throughput.cpu_s_per_gb fact).
tls_url="https://127.0.0.1:$((port + 1))"
ca="$run/nginx/tls/cert.pem"
curl_cpu_s_per_gb() {
  /usr/bin/time -o "$run/curl.time" -f '%U %S' curl -s --cacert "$ca" -o /dev/null \
    "$tls_url/256m.bin"
  awk '{ printf "%.4f\n", ($1 + $2) / (268435456 / 1e9) }' "$run/curl.time"
}
probe_cpu_s_per_gb() {
  "$build/feedcheck" probe throughput "$tls_url/256m.bin" --ca-file "$ca" --concurrency 1 \
    --duration "$seconds" --json 2>/dev/null | fact probe.throughput.cpu_s_per_gb
}
mmm() { sort -g | awk '{a[NR]=$1} END {printf "%.3f / %.3f / %.3f", a[1], a[int((NR+1)/2)], a[NR]}'; }
echo "== TLS: CPU-s per GB over https, one connection, $rounds rounds (load $(cut -d' ' -f1 /proc/loadavg))"
: >"$run/tls_curl" && : >"$run/tls_probe" && : >"$run/tls_ratio"
for _ in $(seq 1 "$rounds"); do
  c=$(curl_cpu_s_per_gb)
  p=$(probe_cpu_s_per_gb)
  echo "$c" >>"$run/tls_curl"
  echo "$p" >>"$run/tls_probe"
  awk -v c="$c" -v p="$p" 'BEGIN { printf "%.4f\n", p / c }' >>"$run/tls_ratio"
done
echo "curl      $(mmm <"$run/tls_curl") CPU-s per GB (min / median / max)"
echo "feedcheck $(mmm <"$run/tls_probe") CPU-s per GB"
echo "ratio     $(mmm <"$run/tls_ratio") (feedcheck / curl, round by round)"
awk -v p="$(median <"$run/tls_probe")" 'BEGIN {
  printf "at 100 Gbit/s (12.5 GB/s) the probe would need %.1f cores (bound: ~4)\n", p * 12.5 }'

if [[ "${KNEE:-0}" == 1 ]]; then
  "$root/scripts/bench-knee.sh" "$build"
fi
