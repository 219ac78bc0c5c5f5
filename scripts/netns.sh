#!/usr/bin/env bash
# An emulated link with a known rate and delay between two network namespaces, for the accuracy
# tests. This kernel has no sch_netem, so:
#   - rate:  tc tbf on the server side's egress (the download direction), exact at wire level;
#   - delay: the userspace TUN wire tools/netdelay (per-direction one-way delay).
#
#   PREFIX-cli                                   PREFIX-srv
#   veth-cli  NET.0.2  <---- veth (rate) ---->  NET.0.1  veth-srv   (tbf)
#   tun-cli   NET.1.2  <-- netdelay (delay) -->  NET.1.1  tun-srv    (tbf)
#
# Usage:
#   scripts/netns.sh check PREFIX       exit 0 when this machine allows namespaces, 77 when not
#   scripts/netns.sh up PREFIX [--rate 1gbit] [--delay-ms 10] [--net 10.200.80]
#                              [--netdelay build/netdelay] [--lifetime-s 900] [--cc cubic]
#       --delay-ms is one way (10 = 20 ms RTT); --net is the first three octets of the veth
#       subnet (the TUN pair takes the next /24); --cc pins the server side's TCP congestion
#       control (default: the host's, which new namespaces inherit). Prints the addresses as
#       shell assignments.
#   scripts/netns.sh down PREFIX        always safe: removes whatever of PREFIX exists
# Only 10.200.x addresses, and only inside the namespaces this script creates.
set -euo pipefail

die() {
  echo "netns: $*" >&2
  exit 1
}

state_dir() { echo "${TMPDIR:-/tmp}/feedcheck-netns-$1"; }

check_prefix() {
  [[ "$1" =~ ^[a-z][a-z0-9]{1,9}$ ]] || die "PREFIX must be 2-10 lower-case letters/digits: '$1'"
}

# Can we create a namespace, a veth pair and a TUN device? Exit 77 (ctest's skip code) if not.
cmd_check() {
  local prefix=$1 probe="$1-chk$$" why=""
  check_prefix "$prefix"
  if [[ $(id -u) != 0 ]]; then
    why="not root"
  elif ! command -v ip >/dev/null || ! command -v tc >/dev/null; then
    why="ip/tc (iproute2) not installed"
  elif [[ ! -c /dev/net/tun ]]; then
    why="/dev/net/tun is missing"
  elif ! why=$(ip netns add "$probe" 2>&1); then
    why="ip netns add refused: $why"
  elif ! why=$(ip -n "$probe" tuntap add dev tun-chk mode tun 2>&1 &&
    ip -n "$probe" link add veth-a type veth peer name veth-b 2>&1 &&
    ip -n "$probe" link set veth-a up 2>&1 &&
    ip netns exec "$probe" tc qdisc add dev veth-a root tbf rate 1gbit burst 256kb latency 50ms 2>&1); then
    ip netns del "$probe" 2>/dev/null || true
    why="namespace created but veth/TUN/tbf refused: $why"
  else
    ip netns del "$probe" 2>/dev/null || true
    return 0
  fi
  echo "netns: SKIP: this machine refuses network namespaces ($why)" >&2
  exit 77
}

cmd_up() {
  local prefix=$1
  shift
  check_prefix "$prefix"
  local rate=1gbit delay_ms=10 net=10.200.80 lifetime_s=900
  local netdelay=${NETDELAY:-build/netdelay} burst=256kb cc=""
  while (($#)); do
    case "$1" in
      --rate) rate=$2 ;;
      --delay-ms) delay_ms=$2 ;;
      --net) net=$2 ;;
      --netdelay) netdelay=$2 ;;
      --lifetime-s) lifetime_s=$2 ;;
      --burst) burst=$2 ;;
      --cc) cc=$2 ;;
      *) die "unknown option $1" ;;
    esac
    shift 2 || die "option $1 needs a value"
  done
  [[ "$net" =~ ^10\.200\.([0-9]+)$ ]] || die "--net must be 10.200.N (got $net)"
  local third=${BASH_REMATCH[1]}
  ((third < 255)) || die "--net third octet must be < 255"
  local tun_net="10.200.$((third + 1))"
  [[ "$delay_ms" =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "--delay-ms must be a number (got $delay_ms)"
  [[ -x "$netdelay" ]] || die "netdelay binary not found at $netdelay (build it: cmake --build build --target netdelay)"
  local delay_us
  delay_us=$(awk -v ms="$delay_ms" 'BEGIN { printf "%d", ms * 1000 }')

  local srv="$prefix-srv" cli="$prefix-cli" dir
  dir=$(state_dir "$prefix")
  cmd_down "$prefix" 2>/dev/null # a leftover from a killed run must not make us fail
  mkdir -p "$dir"
  # Half-built links are removed before the error propagates.
  trap 'cmd_down "$prefix"' ERR

  ip netns add "$srv"
  ip netns add "$cli"
  ip -n "$srv" link set lo up
  ip -n "$cli" link set lo up

  # Rate-only link. Created directly inside the namespaces so names never clash in the host.
  ip link add veth-srv netns "$srv" type veth peer name veth-cli netns "$cli"
  ip -n "$srv" addr add "$net.1/24" dev veth-srv
  ip -n "$cli" addr add "$net.2/24" dev veth-cli
  ip -n "$srv" link set veth-srv up txqueuelen 10000
  ip -n "$cli" link set veth-cli up txqueuelen 10000

  # Delayed link: two persistent TUN devices joined by netdelay. The default txqueuelen (500)
  # drops bursts at 1 Gbit/s.
  ip -n "$cli" tuntap add dev tun-cli mode tun
  ip -n "$srv" tuntap add dev tun-srv mode tun
  ip -n "$cli" addr add "$tun_net.2" peer "$tun_net.1" dev tun-cli
  ip -n "$srv" addr add "$tun_net.1" peer "$tun_net.2" dev tun-srv
  ip -n "$cli" link set tun-cli up txqueuelen 10000
  ip -n "$srv" link set tun-srv up txqueuelen 10000

  # The default tcp_wmem max (4 MiB) caps one connection below 1 Gbit/s at 20 ms RTT
  # (BDP 2.5 MB, and the sender needs about twice that). wmem is per namespace; wmem_max is not.
  ip netns exec "$srv" sysctl -qw net.ipv4.tcp_wmem="4096 16384 33554432"
  ip netns exec "$cli" sysctl -qw net.ipv4.tcp_rmem="4096 131072 33554432"

  # The sender's congestion control is the server's, not the link's, yet it decides what N
  # connections carry: BBR paces each connection at its own bandwidth estimate once it leaves
  # start-up, CUBIC does not pace. New namespaces take the host's default (bbr on some machines,
  # cubic on a stock kernel); a route's congctl pins it for every connection the server accepts
  # over either link. (A namespace may not set tcp_congestion_control itself to an algorithm
  # outside the host's tcp_allowed_congestion_control; a route may.)
  if [[ -n "$cc" ]]; then
    [[ "$cc" =~ ^[a-z0-9_]+$ ]] || die "--cc must be an algorithm name (got $cc)"
    ip -n "$srv" route replace "$net.0/24" dev veth-srv congctl lock "$cc" ||
      die "--cc $cc refused (available: $(cat /proc/sys/net/ipv4/tcp_available_congestion_control))"
    ip -n "$srv" route replace "$tun_net.2" dev tun-srv congctl lock "$cc"
  else
    cc=$(ip netns exec "$srv" sysctl -n net.ipv4.tcp_congestion_control)
  fi

  ip netns exec "$srv" tc qdisc add dev veth-srv root tbf rate "$rate" burst "$burst" latency 50ms
  ip netns exec "$srv" tc qdisc add dev tun-srv root tbf rate "$rate" burst "$burst" latency 100ms

  # A half of the delay each way gives RTT = 2 x delay_ms, the usual meaning of "one way".
  "$netdelay" "$cli" tun-cli "$srv" tun-srv "$delay_us" "$delay_us" "$lifetime_s" \
    </dev/null >>"$dir/netdelay.log" 2>&1 &
  echo $! >"$dir/netdelay.pid"
  # The TUN carrier comes up when netdelay attaches; wait (bounded) for that.
  local i
  for i in $(seq 1 50); do
    local links
    links=$(ip -n "$cli" link show tun-cli; ip -n "$srv" link show tun-srv)
    [[ "$links" != *NO-CARRIER* ]] && break
    kill -0 "$(cat "$dir/netdelay.pid")" 2>/dev/null || die "netdelay exited: $(cat "$dir/netdelay.log")"
    sleep 0.05
  done
  ((i < 50)) || die "netdelay did not attach to the TUN devices within 2.5 s"

  trap - ERR
  cat <<EOF
NETNS_SERVER=$srv
NETNS_CLIENT=$cli
NETNS_RATE_ADDR=$net.1
NETNS_DELAY_ADDR=$tun_net.1
NETNS_RATE=$rate
NETNS_ONE_WAY_DELAY_MS=$delay_ms
NETNS_SERVER_CC=$cc
EOF
}

cmd_down() {
  local prefix=$1 dir pid
  check_prefix "$prefix"
  dir=$(state_dir "$prefix")
  if [[ -f "$dir/netdelay.pid" ]]; then
    pid=$(cat "$dir/netdelay.pid")
    # Only stop the process we started: the pid file may be stale and the pid reused.
    local cmdline=""
    [[ -r "/proc/$pid/cmdline" ]] && cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)
    if [[ "$cmdline" == *"netdelay $prefix-cli "* ]]; then
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 1 40); do
        [[ $(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || echo gone) =~ ^(Z|gone)$ ]] && break
        sleep 0.05
      done
      kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$dir/netdelay.pid"
  fi
  # The wire's own report (packets, drops, offload, CPU time) outlives its state directory.
  [[ -s "$dir/netdelay.log" ]] && tail -n 1 "$dir/netdelay.log" >&2
  ip -n "$prefix-cli" tuntap del dev tun-cli mode tun 2>/dev/null || true
  ip -n "$prefix-srv" tuntap del dev tun-srv mode tun 2>/dev/null || true
  ip netns del "$prefix-srv" 2>/dev/null || true # takes the veth pair with it
  ip netns del "$prefix-cli" 2>/dev/null || true
  rm -rf "$dir"
  return 0
}

case "${1:-}" in
  check) cmd_check "${2:?PREFIX}" ;;
  up) shift && cmd_up "${1:?PREFIX}" "${@:2}" ;;
  down) cmd_down "${2:?PREFIX}" ;;
  *)
    sed -n '2,20p' "$0" >&2
    exit 2
    ;;
esac
