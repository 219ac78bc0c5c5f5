#!/usr/bin/env bash
# Soak test of the delay wire, run under with_link.sh (1 Gbit/s, 20 ms RTT): downloads SOAK_GB
# gigabytes over the delayed link and checks that netdelay's resident memory stays flat (it once
# kept every packet buffer it forwarded: 11 GB in 4 minutes) and reports what the wire cost.
# usage: with_link.sh ... -- netdelay_soak.sh PREFIX [GB]
set -euo pipefail
prefix=$1 gb=${2:-3}
fail() { echo "FAIL: $*" >&2 && exit 1; }
state="${TMPDIR:-/tmp}/feedcheck-netns-$prefix"
pid=$(cat "$state/netdelay.pid")
rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$pid/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }

before=$(rss_kib)
ticks_before=$(cpu_ticks)
start=$(date +%s.%N)
# One connection, the whole file each time: 1 GiB a pass, SOAK_GB passes.
for _ in $(seq 1 "$gb"); do
  ip netns exec "$NETNS_CLIENT" curl -sS -o /dev/null --max-time 60 "$NETNS_DELAY_URL/1g.bin" ||
    fail "download over the delayed link failed"
done
wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN {print e - s}')
after=$(rss_kib)
ticks_after=$(cpu_ticks)
hz=$(getconf CLK_TCK)
cpu=$(awk -v a="$ticks_before" -v b="$ticks_after" -v hz="$hz" 'BEGIN {print (b - a) / hz}')
gbit=$(awk -v gb="$gb" 'BEGIN {print gb * 8 * 1.073741824}')
echo "netdelay soak: ${gb} GiB in ${wall} s ($(awk -v g="$gbit" -v w="$wall" 'BEGIN {printf "%.3f", g / w}') Gbit/s);" \
  "RSS ${before} KiB -> ${after} KiB; CPU ${cpu} s ($(awk -v c="$cpu" -v w="$wall" 'BEGIN {printf "%.3f", c / w}') of a core," \
  "$(awk -v c="$cpu" -v g="$gb" 'BEGIN {printf "%.3f", c / (g * 1.073741824)}') CPU-s per GB)"
# Flat: the ring is allocated and touched at start; anything more is a leak. 1 MiB of slack
# for the C library's own bookkeeping.
((after - before < 1024)) || fail "netdelay RSS grew by $((after - before)) KiB over ${gb} GiB"
# A wire that took most of a core would make every delayed-link figure a measure of the wire.
awk -v c="$cpu" -v w="$wall" 'BEGIN {exit !(c / w < 0.25)}' ||
  fail "netdelay used $cpu CPU-s in $wall s: more than a quarter of a core"
echo "netdelay soak: ok"
