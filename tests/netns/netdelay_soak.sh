#!/usr/bin/env bash
# Soak test of the delay wire, run under with_link.sh (1 Gbit/s, 20 ms RTT): downloads SOAK_GB
# gigabytes over the delayed link and checks that netdelay's resident memory stays flat (it once
# kept every packet buffer it forwarded: 11 GB in 4 minutes), that it carries super-packets (GSO
# offload on), that it sleeps when there is nothing to carry, and reports what the wire cost.
# The checks are properties of the wire, not of the machine's speed: its CPU per byte is mostly
# the kernel's copies and the receiving stack's work, which runs in its write and which took
# 0.12 of a core on one machine of this kind and 0.25-0.31 on slower ones.
# usage: with_link.sh ... -- netdelay_soak.sh PREFIX [GB]
set -euo pipefail
prefix=$1 gb=${2:-3}
fail() { echo "FAIL: $*" >&2 && exit 1; }
state="${TMPDIR:-/tmp}/feedcheck-netns-$prefix"
pid=$(cat "$state/netdelay.pid")
rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$pid/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
rx() { ip netns exec "$NETNS_CLIENT" cat "/sys/class/net/tun-cli/statistics/rx_$1"; }

before=$(rss_kib)
ticks_before=$(cpu_ticks)
rx_packets_before=$(rx packets) rx_bytes_before=$(rx bytes)
start=$(date +%s.%N)
# One connection, the whole file each time: 1 GiB a pass, SOAK_GB passes.
for _ in $(seq 1 "$gb"); do
  ip netns exec "$NETNS_CLIENT" curl -sS -o /dev/null --max-time 60 "$NETNS_DELAY_URL/1g.bin" ||
    fail "download over the delayed link failed"
done
wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN {print e - s}')
after=$(rss_kib)
ticks_after=$(cpu_ticks)
rx_packets=$(($(rx packets) - rx_packets_before)) rx_bytes=$(($(rx bytes) - rx_bytes_before))
hz=$(getconf CLK_TCK)
cpu=$(awk -v a="$ticks_before" -v b="$ticks_after" -v hz="$hz" 'BEGIN {print (b - a) / hz}')
gbit=$(awk -v gb="$gb" 'BEGIN {print gb * 8 * 1.073741824}')
echo "netdelay soak: ${gb} GiB in ${wall} s ($(awk -v g="$gbit" -v w="$wall" 'BEGIN {printf "%.3f", g / w}') Gbit/s);" \
  "RSS ${before} KiB -> ${after} KiB; CPU ${cpu} s ($(awk -v c="$cpu" -v w="$wall" 'BEGIN {printf "%.3f", c / w}') of a core," \
  "$(awk -v c="$cpu" -v g="$gb" 'BEGIN {printf "%.3f", c / (g * 1.073741824)}') CPU-s per GB)"
# Flat: the ring is allocated and touched at start; anything more is a leak. 1 MiB of slack
# for the C library's own bookkeeping.
((after - before < 1024)) || fail "netdelay RSS grew by $((after - before)) KiB over ${gb} GiB"
# Offload: the client's stack takes the server's 64 KiB super-packets whole (per packet, the
# mean is the 1500-byte MTU and the wire's cost doubles).
mean=$((rx_bytes / (rx_packets > 0 ? rx_packets : 1)))
echo "netdelay soak: the client's side received $rx_packets packets of $mean bytes on average"
((mean > 16384)) || fail "the wire carried packets of $mean bytes on average: offload is off"
# Idle: a wire that spins in its loop takes a whole core with nothing to carry; one that sleeps
# in ppoll until the next packet is due takes next to none.
idle_ticks=$(cpu_ticks)
sleep 2
idle_cpu=$(awk -v a="$idle_ticks" -v b="$(cpu_ticks)" -v hz="$hz" 'BEGIN {print (b - a) / hz}')
echo "netdelay soak: idle for 2 s, CPU ${idle_cpu} s"
awk -v c="$idle_cpu" 'BEGIN {exit !(c <= 0.1)}' || fail "netdelay used $idle_cpu CPU-s in 2 s idle"
# A wire that took most of a core would make every delayed-link figure a measure of the wire.
awk -v c="$cpu" -v w="$wall" 'BEGIN {exit !(c / w < 0.5)}' ||
  fail "netdelay used $cpu CPU-s in $wall s: half a core or more"
echo "netdelay soak: ok"
