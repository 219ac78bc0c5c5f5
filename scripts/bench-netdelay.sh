#!/usr/bin/env bash
# What the delay wire costs: 1 GiB over a 1 Gbit/s, 20 ms RTT emulated link (scripts/netns.sh),
# with the wire's GSO offload on (the default) and off (NETDELAY_NO_OFFLOAD=1, one read and one
# write per MTU-sized packet), RUNS times each, in turn. Prints per run curl's goodput, the wire's
# CPU (share of one core, CPU-s per GB) and its resident memory before and after, then
# min/median/max per mode. Needs root and namespaces (scripts/netns.sh check).
# usage: scripts/bench-netdelay.sh [BUILD_DIR] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} runs=${2:-3}
prefix=fcbnd net=10.200.70 port=18071
[[ -x "$build/netdelay" ]] || { echo "bench-netdelay: build $build/netdelay first" >&2 && exit 2; }
bash scripts/netns.sh check "$prefix"
echo "bench-netdelay: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start"

one_run() { # prints: gbps core_share cpu_s_per_gb rss_before_kib rss_after_kib
  bash tests/netns/with_link.sh --prefix "$prefix" --net "$net" --port "$port" --rate 1gbit \
    --delay-ms 10 --netdelay "$build/netdelay" -- bash -c '
    pid=$(cat "${TMPDIR:-/tmp}/feedcheck-netns-'"$prefix"'/netdelay.pid")
    rss() { awk "/^VmRSS:/ {print \$2}" /proc/$pid/status; }
    ticks() { awk "{print \$14 + \$15}" /proc/$pid/stat; }
    r0=$(rss); t0=$(ticks); s=$(date +%s.%N)
    bps=$(ip netns exec "$NETNS_CLIENT" curl -sS -o /dev/null --max-time 60 \
      -w "%{speed_download}" "$NETNS_DELAY_URL/1g.bin")
    e=$(date +%s.%N); r1=$(rss); t1=$(ticks)
    awk -v bps="$bps" -v t0="$t0" -v t1="$t1" -v hz="$(getconf CLK_TCK)" -v s="$s" -v e="$e" \
      -v r0="$r0" -v r1="$r1" "BEGIN { cpu = (t1 - t0) / hz;
        printf \"%.3f %.3f %.2f %d %d\n\", bps * 8 / 1e9, cpu / (e - s), cpu / 1.073741824, r0, r1 }"
  ' 2>/dev/null | tail -n 1
}

declare -A results
for ((i = 1; i <= runs; i++)); do
  for mode in offload per-packet; do
    if [[ $mode == per-packet ]]; then line=$(NETDELAY_NO_OFFLOAD=1 one_run); else line=$(one_run); fi
    echo "run $i $mode: $line" | awk '{printf "%s %s %-10s %s Gbit/s, %s of a core, %s CPU-s/GB, RSS %s -> %s KiB\n", $1, $2, $3, $4, $5, $6, $7, $8}'
    results[$mode]+="$line"$'\n'
  done
done
for mode in offload per-packet; do
  printf '%s' "${results[$mode]}" | awk -v mode="$mode" '
    { g[NR] = $1; c[NR] = $2; s[NR] = $3; grow = ($5 - $4 > grow) ? $5 - $4 : grow }
    function mmm(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
        if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return sprintf("%s / %s / %s", a[1], a[int((n + 1) / 2)], a[n]) }
    END { printf "%-10s goodput %s Gbit/s; core share %s; CPU-s/GB %s (min/median/max); RSS growth at most %d KiB\n",
      mode, mmm(g, NR), mmm(c, NR), mmm(s, NR), grow }'
done
echo "bench-netdelay: load average $(cut -d' ' -f1-3 /proc/loadavg) at end"
