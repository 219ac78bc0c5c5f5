#!/usr/bin/env bash
# An emulated cluster on one host for the MPI ramp test: one network namespace per rank, each
# behind a "NIC" shaped with tc tbf, and nginx in a server namespace behind a shaped "account
# egress" link, all joined by a bridge in a router namespace:
#
#   PREFIX-srv (nginx, BASE.1) --veth, tbf EGRESS--> PREFIX-br [bridge] --veth, tbf NIC--> PREFIX-rK (BASE.(10+K))
#
# Rates are shaped on the sending side (downloads flow server -> ranks). Usage:
#   mpi-netns.sh check PREFIX                          exit 77 when this machine refuses namespaces
#   mpi-netns.sh up PREFIX BASE RANKS NIC EGRESS PORT RUNDIR   e.g. fch7 10.200.112 3 500mbit 1gbit 18480 /tmp/x
#   mpi-netns.sh down PREFIX RANKS RUNDIR              always safe to run
#   mpi-netns.sh test PREFIX BASE RANKS NIC EGRESS PORT RUNDIR -- COMMAND...
#       check, up, run COMMAND with FEEDCHECK_TEST_RAMP_URL=http://BASE.1:PORT/256m.bin and
#       FEEDCHECK_TEST_RAMP_NETNS=PREFIX-r{rank}, then down (also on failure or Ctrl-C).
set -euo pipefail

check() {
  local ns="$1-check$$"
  if ! ip netns add "$ns" 2>/dev/null; then
    echo "mpi-netns.sh: SKIP: this machine refuses network namespaces (ip netns add failed)" >&2
    exit 77
  fi
  ip netns del "$ns"
  if ! command -v tc >/dev/null; then
    echo "mpi-netns.sh: SKIP: tc (iproute2) is not installed" >&2
    exit 77
  fi
}

down() {
  local prefix=$1 ranks=$2 rundir=$3
  if [[ -f "$rundir/nginx.pid" ]]; then
    kill "$(cat "$rundir/nginx.pid")" 2>/dev/null || true
    rm -f "$rundir/nginx.pid"
  fi
  for ((k = 0; k < ranks; k++)); do ip netns del "$prefix-r$k" 2>/dev/null || true; done
  ip netns del "$prefix-br" 2>/dev/null || true
  ip netns del "$prefix-srv" 2>/dev/null || true
}

up() {
  local prefix=$1 base=$2 ranks=$3 nic=$4 egress=$5 port=$6 rundir=$7
  mkdir -p "$rundir/www" "$rundir/logs" "$rundir/tmp"
  rundir=$(cd "$rundir" && pwd)
  ip netns add "$prefix-srv"
  ip netns add "$prefix-br"
  ip -n "$prefix-srv" link set lo up
  ip -n "$prefix-br" link set lo up
  ip -n "$prefix-br" link add br0 type bridge
  ip -n "$prefix-br" link set br0 up
  # Server link: the account egress limit on the server's sending side.
  ip -n "$prefix-srv" link add srv0 type veth peer name up0 netns "$prefix-br"
  ip -n "$prefix-srv" addr add "$base.1/24" dev srv0
  ip -n "$prefix-srv" link set srv0 up
  ip -n "$prefix-br" link set up0 master br0 up
  ip netns exec "$prefix-srv" tc qdisc add dev srv0 root tbf rate "$egress" burst 256kb latency 50ms
  for ((k = 0; k < ranks; k++)); do
    local ns="$prefix-r$k"
    ip netns add "$ns"
    ip -n "$ns" link set lo up  # MPI needs lo up wherever its processes live
    ip -n "$prefix-br" link add "port$k" type veth peer name nic0 netns "$ns"
    ip -n "$ns" addr add "$base.$((10 + k))/24" dev nic0
    ip -n "$ns" link set nic0 up
    ip -n "$prefix-br" link set "port$k" master br0 up
    # The node's NIC: what the bridge sends towards the rank.
    ip netns exec "$prefix-br" tc qdisc add dev "port$k" root tbf rate "$nic" burst 256kb latency 50ms
  done
  truncate -s 256M "$rundir/www/256m.bin"
  local user_line=""
  [[ $EUID -eq 0 ]] && user_line="user root;"
  cat >"$rundir/nginx.conf" <<CONF
$user_line
worker_processes 1;
daemon off;
pid $rundir/nginx.pid.internal;
error_log $rundir/logs/error.log warn;
events { worker_connections 256; }
http {
  access_log off; sendfile on; tcp_nopush on; keepalive_requests 1000000;
  client_body_temp_path $rundir/tmp/body; proxy_temp_path $rundir/tmp/proxy;
  fastcgi_temp_path $rundir/tmp/fcgi; uwsgi_temp_path $rundir/tmp/uwsgi;
  scgi_temp_path $rundir/tmp/scgi;
  types { application/octet-stream bin; }
  server { listen $base.1:$port; root $rundir/www; }
}
CONF
  ip netns exec "$prefix-srv" nginx -p "$rundir" -c "$rundir/nginx.conf" \
    >"$rundir/logs/stdout.log" 2>&1 &
  echo $! >"$rundir/nginx.pid"
  for _ in $(seq 1 100); do
    if ip netns exec "$prefix-r0" curl -s -o /dev/null -r 0-0 "http://$base.1:$port/256m.bin"; then
      echo "mpi-netns.sh: $ranks ranks at $nic each, nginx at $base.1:$port behind $egress" >&2
      return 0
    fi
    sleep 0.05
  done
  echo "mpi-netns.sh: nginx did not answer at $base.1:$port; see $rundir/logs" >&2
  cat "$rundir/logs/error.log" "$rundir/logs/stdout.log" >&2 2>/dev/null || true
  return 1
}

action=${1:?usage: mpi-netns.sh check|up|down|test ...}
shift
case "$action" in
check) check "${1:?prefix}" ;;
up) up "$@" ;;
down) down "${1:?prefix}" "${2:?ranks}" "${3:?rundir}" ;;
test)
  prefix=$1 base=$2 ranks=$3 nic=$4 egress=$5 port=$6 rundir=$7
  shift 7
  [[ "${1:-}" == "--" ]] && shift
  check "$prefix"
  down "$prefix" "$ranks" "$rundir"  # leftovers of an interrupted run
  trap 'down "$prefix" "$ranks" "$rundir"' EXIT
  trap 'exit 130' INT TERM
  up "$prefix" "$base" "$ranks" "$nic" "$egress" "$port" "$rundir"
  FEEDCHECK_TEST_RAMP_URL="http://$base.1:$port/256m.bin" \
    FEEDCHECK_TEST_RAMP_NETNS="$prefix-r{rank}" "$@"
  ;;
*)
  echo "mpi-netns.sh: unknown action '$action'" >&2
  exit 2
  ;;
esac
