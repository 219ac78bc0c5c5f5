#!/usr/bin/env bash
# netdelay ends by itself after its lifetime and on SIGTERM, reporting what it forwarded, so a
# crashed test never leaves a wire running. usage: netdelay_lifetime.sh PREFIX NET NETDELAY
set -euo pipefail
prefix=$1 net=$2 netdelay=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
netns="$root/scripts/netns.sh"
bash "$netns" check "$prefix"
trap 'bash "$netns" down "$prefix"' EXIT
fail() { echo "FAIL: $*" >&2 && exit 1; }
# Running, not a zombie: netdelay outlives the script that started it, and its new parent may
# reap it late.
alive() { [[ -r /proc/$1/stat ]] && [[ $(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) != Z ]]; }

# Usage errors are refused before anything is touched.
set +e
"$netdelay" a b c d 1 2 >/dev/null 2>&1
[[ $? == 2 ]] || fail "netdelay with 6 arguments should exit 2"
"$netdelay" a b c d -1 2 3 >/dev/null 2>&1
[[ $? == 2 ]] || fail "a negative delay should exit 2"
set -e

state="${TMPDIR:-/tmp}/feedcheck-netns-$prefix"
eval "$(bash "$netns" up "$prefix" --net "$net" --netdelay "$netdelay" --lifetime-s 1)"
pid=$(cat "$state/netdelay.pid")
ip netns exec "$NETNS_CLIENT" bash -c "echo x >/dev/tcp/$NETNS_DELAY_ADDR/9" 2>/dev/null || true
for _ in $(seq 1 40); do alive "$pid" || break; sleep 0.1; done
alive "$pid" && fail "netdelay still running 4 s after a 1 s lifetime"
grep -q "lifetime over" "$state/netdelay.log" || fail "no exit report: $(cat "$state/netdelay.log")"
grep -qE "A->B [1-9][0-9]* packets" "$state/netdelay.log" || fail "forwarded nothing: $(cat "$state/netdelay.log")"

eval "$(bash "$netns" up "$prefix" --net "$net" --netdelay "$netdelay" --lifetime-s 60)"
pid=$(cat "$state/netdelay.pid")
kill -TERM "$pid"
for _ in $(seq 1 20); do alive "$pid" || break; sleep 0.05; done
alive "$pid" && fail "netdelay ignored SIGTERM for 1 s"
grep -q "stopped" "$state/netdelay.log" || fail "no report after SIGTERM"

bash "$netns" down "$prefix"
ip netns list | grep -q "^$prefix-" && fail "namespaces left after down"
bash "$netns" down "$prefix" # twice is fine
echo "netdelay lifetime, SIGTERM and teardown: ok"
