#!/usr/bin/env bash
# The auto concurrency sweep's knee over emulated 1 Gbit/s links, ROUNDS sweeps per RTT (the
# campaign behind the "sweep's knee" section of docs/performance.md; CI runs one sweep per RTT).
# Each sweep runs `feedcheck probe throughput --concurrency auto --block-size 4MiB --duration 24s`
# in the client namespace of a fresh link (tests/netns/with_link.sh: tbf for the rate, the
# netdelay wire for the delay) and prints its steps, its knee with the noise band, and the knee
# an ideal pipe predicts: ceil((RTT + T) / T), T = one 4 MiB block at the link's goodput.
#
# Usage: scripts/bench-knee.sh [BUILD_DIR] [PREFIX] [NET] [PORT]
#   defaults: build fcbk 10.200.90 18090; RTTS="0 10 50" (ms), ROUNDS=3, RATE_MBIT=1000,
#   DURATION=24s, CCS=host (the server side's TCP congestion control, one campaign per name,
#   e.g. CCS="bbr cubic"; host: the host's default, which new namespaces inherit). FEEDCHECK=path runs another binary (e.g. an
#   older build, to compare).
# Needs root (namespaces), nginx, a built feedcheck and netdelay. Run it on a quiet machine
# under `nice -n -10`: the sweep measures the machine as much as the link. Prints the load.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
prefix=${2:-fcbk}
net=${3:-10.200.90}
port=${4:-18090}
rtts=${RTTS:-0 10 50}
rounds=${ROUNDS:-3}
rate_mbit=${RATE_MBIT:-1000}
duration=${DURATION:-24s}
ccs=${CCS:-host}
feedcheck=${FEEDCHECK:-$build/feedcheck}
run=$(mktemp -d /tmp/feedcheck-bench-knee.XXXXXX)
trap 'rm -rf "$run"' EXIT

for tool in "$feedcheck" "$build/netdelay"; do
  [[ -x "$tool" ]] || { echo "bench-knee: $tool not built" >&2 && exit 3; }
done

# One sweep inside the client namespace; with_link.sh exports the URLs and the link.
cat >"$run/sweep.sh" <<'EOF'
set -euo pipefail
url=$([[ "$NETNS_ONE_WAY_DELAY_MS" == 0 ]] && echo "$NETNS_RATE_URL" || echo "$NETNS_DELAY_URL")
ip netns exec "$NETNS_CLIENT" "$FEEDCHECK_UNDER_TEST" probe throughput "$url/1g.bin" \
  --concurrency auto --block-size 4MiB --duration "$SWEEP_DURATION" --json >"$SWEEP_OUT"
EOF

# "K G B 1:0.941,2:0.957,... C S" (knee, its rate and band, the steps, the cycle in ms, the runs
# set aside) from the probe's JSON.
summarize() {
  python3 - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
facts = {f["key"]: f["value"] for f in d["evidence"]["facts"]}
steps = next((s["points"] for s in d["evidence"]["series"]
              if s.get("key") == "probe.throughput.by_concurrency"), [])
cycle = facts.get("probe.throughput.request_cycle_ms")
print("{} {:.3f} {:.3f} {} {} {}".format(
    int(facts["probe.throughput.best_concurrency"]), facts["probe.throughput.knee_gbps"],
    facts["probe.throughput.knee_noise_gbps"],
    ",".join("{}:{:.3f}".format(int(x), y) for x, y in steps),
    "-" if cycle is None else "{:.1f}".format(cycle),
    int(facts.get("probe.throughput.runs_set_aside", 0))))
EOF
}

echo "== sweep knee: ${rate_mbit} Mbit/s, RTT ${rtts// /, } ms, $rounds sweeps each, --duration $duration"
echo "   $("$feedcheck" --version 2>/dev/null | head -1 || true); load $(cut -d' ' -f1-3 /proc/loadavg) at start"
status=0
for cc in $ccs; do
host_cc=$(sysctl -n net.ipv4.tcp_congestion_control)
echo "-- server congestion control: $([[ "$cc" == host ]] && echo "$host_cc (the host's default)" || echo "$cc")"
for rtt in $rtts; do
  one_way=$(awk -v r="$rtt" 'BEGIN { printf "%g", r / 2 }')
  # The ideal pipe: one block at the goodput (tbf counts wire bytes: 1448 of 1514 carry data).
  bdp_knee=$(awk -v r="$rtt" -v m="$rate_mbit" 'BEGIN {
    t = 4 * 1048576 * 8 / (m * 1e6 * 0.956) * 1e3; k = (r + t) / t
    printf "%d", (k == int(k)) ? k : int(k) + 1 }')
  knees=""
  for i in $(seq 1 "$rounds"); do
    out="$run/sweep-$rtt-$i.json"
    if ! FEEDCHECK_UNDER_TEST="$feedcheck" SWEEP_DURATION="$duration" SWEEP_OUT="$out" \
      bash "$root/tests/netns/with_link.sh" --prefix "$prefix" --net "$net" --port "$port" \
      --rate "${rate_mbit}mbit" --delay-ms "$one_way" --netdelay "$build/netdelay" \
      $([[ "$cc" == host ]] || echo "--cc $cc") -- bash "$run/sweep.sh" >"$run/link.log" 2>&1; then
      echo "RTT $rtt ms, sweep $i: failed"
      tail -n 5 "$run/link.log"
      status=1
      continue
    fi
    if ! read -r knee gbps band steps cycle set_aside < <(summarize "$out"); then
      echo "RTT $rtt ms, sweep $i: no knee in the probe's JSON ($out)"
      status=1
      continue
    fi
    printf "RTT %3s ms, sweep %d: knee %2d (%s +- %s Gbit/s); steps %s; cycle %s ms; runs set aside %s; load %s\n" \
      "$rtt" "$i" "$knee" "$gbps" "$band" "$steps" "$cycle" "$set_aside" "$(cut -d' ' -f1 /proc/loadavg)"
    knees="$knees $knee"
  done
  # The most frequent knee and how many sweeps found it: the bar is ROUNDS of ROUNDS.
  read -r count mode < <(echo "$knees" | tr ' ' '\n' | grep -v '^$' | sort | uniq -c |
    sort -rn | head -1 || echo "0 -")
  printf "RTT %3s ms: knees%s: %s in %s/%s; ideal pipe %d\n" "$rtt" "$knees" "$mode" "$count" \
    "$rounds" "$bdp_knee"
done
done
echo "   load $(cut -d' ' -f1-3 /proc/loadavg) at end"
exit "$status"
