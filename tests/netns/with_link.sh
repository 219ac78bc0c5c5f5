#!/usr/bin/env bash
# Test fixture: brings up an emulated link (scripts/netns.sh), starts nginx inside the server
# namespace, runs COMMAND with the link described in the environment, and tears everything down
# with a trap whatever happens (failure, timeout, Ctrl-C).
#
# usage: with_link.sh --prefix P --net 10.200.N --port PORT --rate 1gbit --delay-ms 10
#                     --netdelay PATH [--cc cubic] -- COMMAND...
# Exit: COMMAND's status; 77 (skip) only when the machine refuses namespaces or lacks the --cc
# congestion control asked for.
# Exported to COMMAND: NETNS_CLIENT, NETNS_SERVER, NETNS_RATE_URL, NETNS_DELAY_URL (nginx root,
# serving 1g.bin (sparse) and 4k.bin), NETNS_RATE, NETNS_ONE_WAY_DELAY_MS, NETNS_SERVER_CC (the
# server side's TCP congestion control: --cc, else the host's default).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

prefix=fcns net=10.200.80 port=18081 rate=1gbit delay_ms=10 netdelay="" cc=""
while (($#)); do
  case "$1" in
    --prefix) prefix=$2 ;;
    --net) net=$2 ;;
    --port) port=$2 ;;
    --rate) rate=$2 ;;
    --delay-ms) delay_ms=$2 ;;
    --netdelay) netdelay=$2 ;;
    --cc) cc=$2 ;;
    --) shift && break ;;
    *) echo "with_link: unknown option $1" >&2 && exit 2 ;;
  esac
  shift 2
done
(($#)) || { echo "with_link: no COMMAND after --" >&2 && exit 2; }

netns="$root/scripts/netns.sh"
bash "$netns" check "$prefix" # exits 77 with the reason when namespaces are refused
if [[ -n "$cc" ]] && ! grep -qw -- "$cc" /proc/sys/net/ipv4/tcp_available_congestion_control; then
  echo "with_link: SKIP: this kernel has no $cc congestion control (available: $(cat /proc/sys/net/ipv4/tcp_available_congestion_control))" >&2
  exit 77
fi

# These tests measure the link and the probe, not the machine's other load: ctest runs them
# RUN_SERIAL, and a raised priority (inherited by netdelay, nginx and the client) keeps builds
# running beside them on a shared 2-core machine from starving the wire. Best effort.
renice -n -10 -p $$ >/dev/null 2>&1 || echo "with_link: could not raise priority; timings may suffer under load" >&2

work=$(mktemp -d "${TMPDIR:-/tmp}/feedcheck-$prefix-XXXXXX")
nginx_pid=""
cleanup() {
  if [[ -n "$nginx_pid" ]]; then
    kill -TERM "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
  fi
  bash "$netns" down "$prefix"
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The wire outlives no test: 120 s is twice the longest test's budget.
eval "$(bash "$netns" up "$prefix" --rate "$rate" --delay-ms "$delay_ms" --net "$net" \
  --netdelay "$netdelay" --lifetime-s 120 ${cc:+--cc "$cc"})"

# nginx workers run as nobody: serve from a world-readable directory.
mkdir -p "$work/www" "$work/logs" "$work/tmp"
truncate -s 1G "$work/www/1g.bin" # sparse: costs no disk, reads at memory speed
head -c 4096 /dev/urandom >"$work/www/4k.bin"
# Warm the page cache: the first read of a sparse file costs CPU that would show as a slow link.
cat "$work/www/1g.bin" >/dev/null
chmod -R a+rX "$work"
cat >"$work/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off; sendfile on; tcp_nopush on; keepalive_requests 1000000;
  client_body_temp_path $work/tmp/body; proxy_temp_path $work/tmp/proxy;
  fastcgi_temp_path $work/tmp/fcgi; uwsgi_temp_path $work/tmp/uwsgi; scgi_temp_path $work/tmp/scgi;
  types { application/octet-stream bin; }
  server { listen $NETNS_RATE_ADDR:$port; listen $NETNS_DELAY_ADDR:$port; root $work/www; }
}
EOF
ip netns exec "$NETNS_SERVER" nginx -p "$work" -c "$work/nginx.conf" &
nginx_pid=$!
for i in $(seq 1 50); do
  ip netns exec "$NETNS_CLIENT" curl -sf -o /dev/null "http://$NETNS_RATE_ADDR:$port/4k.bin" && break
  kill -0 "$nginx_pid" 2>/dev/null || { echo "with_link: nginx exited: $(cat "$work/logs/error.log")" >&2 && exit 1; }
  sleep 0.1
done
((i < 50)) || { echo "with_link: nginx not ready after 5 s" >&2 && exit 1; }

export NETNS_CLIENT NETNS_SERVER NETNS_RATE NETNS_ONE_WAY_DELAY_MS NETNS_SERVER_CC
export NETNS_RATE_URL="http://$NETNS_RATE_ADDR:$port"
export NETNS_DELAY_URL="http://$NETNS_DELAY_ADDR:$port"
echo "with_link: $rate, RTT $(awk -v d="$delay_ms" 'BEGIN{print 2*d}') ms; nginx at $NETNS_DELAY_URL (delayed) and $NETNS_RATE_URL (rate only); server congestion control $NETNS_SERVER_CC"
status=0
"$@" || status=$?
exit "$status"
