#!/usr/bin/env bash
# Starts or stops nginx on loopback for the probes' throughput/latency tests and benchmarks.
# Usage: scripts/nginx.sh start PORT RUNDIR   |   scripts/nginx.sh stop PORT RUNDIR
# HTTPS on PORT+1 with a self-signed certificate for 127.0.0.1 (RUNDIR/tls/cert.pem, the file
# to pass as --ca-file), so TLS verification and handshake timing can be tested.
# start generates RUNDIR/nginx.conf and files of known sizes in RUNDIR/www:
#   4k.bin (4096 B), 1m.bin (1 MiB), 64m.bin (64 MiB), 256m.bin (256 MiB), nohead/64m.bin
#   (HEAD refused with 405), and a fake
#   instance-metadata token at metadata/identity/oauth2/token (for the managed-identity test).
# It waits at most 10 s for the server to answer; stop sends QUIT to the recorded PID only.
set -euo pipefail
action=${1:?usage: nginx.sh start|stop PORT RUNDIR}
port=${2:?port}
rundir=${3:?run directory}
mkdir -p "$rundir"
rundir=$(cd "$rundir" && pwd)
pidfile="$rundir/nginx.pid"

case "$action" in
start)
  if [[ -f "$pidfile" ]] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
    echo "nginx.sh: already running (pid $(cat "$pidfile"))" >&2
    exit 0
  fi
  mkdir -p "$rundir/www/metadata/identity/oauth2" "$rundir/logs" "$rundir/tmp"
  head -c 4096 /dev/urandom >"$rundir/www/4k.bin"
  head -c 1048576 /dev/urandom >"$rundir/www/1m.bin"
  # Sparse files: known sizes without disk I/O; the content (zeros) does not matter here.
  truncate -s 64M "$rundir/www/64m.bin"
  truncate -s 256M "$rundir/www/256m.bin"
  printf '{"access_token":"test-token-from-imds","expires_in":"3599","token_type":"Bearer"}' \
    >"$rundir/www/metadata/identity/oauth2/token"
  # nohead/: the same file behind a location that refuses HEAD (like a presigned GET URL).
  mkdir -p "$rundir/www/nohead"
  ln -f "$rundir/www/64m.bin" "$rundir/www/nohead/64m.bin"
  chmod -R a+rX "$rundir/www"
  tls_port=$((port + 1))
  mkdir -p "$rundir/tls"
  if [[ ! -f "$rundir/tls/cert.pem" ]]; then
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=127.0.0.1" \
      -addext "subjectAltName=IP:127.0.0.1" -keyout "$rundir/tls/key.pem" \
      -out "$rundir/tls/cert.pem" >/dev/null 2>&1
  fi
  user_line=""
  # Workers run as nobody unless told otherwise; as root, keep root so any RUNDIR is readable.
  [[ $EUID -eq 0 ]] && user_line="user root;"
  cat >"$rundir/nginx.conf" <<CONF
$user_line
worker_processes 2;
daemon off;
pid $pidfile;
error_log $rundir/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off; sendfile on; tcp_nopush on; keepalive_requests 1000000; keepalive_timeout 65;
  client_body_temp_path $rundir/tmp/body; proxy_temp_path $rundir/tmp/proxy;
  fastcgi_temp_path $rundir/tmp/fcgi; uwsgi_temp_path $rundir/tmp/uwsgi;
  scgi_temp_path $rundir/tmp/scgi;
  types { application/octet-stream bin; application/json token; }
  default_type application/json;
  server {
    listen 127.0.0.1:$port; root $rundir/www;
    location /nohead/ { if (\$request_method = HEAD) { return 405; } }
  }
  server {
    listen 127.0.0.1:$tls_port ssl; root $rundir/www;
    ssl_certificate $rundir/tls/cert.pem; ssl_certificate_key $rundir/tls/key.pem;
  }
}
CONF
  nginx -p "$rundir" -c "$rundir/nginx.conf" >"$rundir/logs/stdout.log" 2>&1 &
  echo $! >"$pidfile.launch"
  for _ in $(seq 1 200); do
    if curl -s -o /dev/null "http://127.0.0.1:$port/4k.bin"; then
      echo "nginx.sh: serving $rundir/www on 127.0.0.1:$port" >&2
      exit 0
    fi
    if ! kill -0 "$(cat "$pidfile.launch")" 2>/dev/null; then break; fi
    sleep 0.05
  done
  echo "nginx.sh: nginx did not start on port $port; see $rundir/logs" >&2
  cat "$rundir/logs/error.log" "$rundir/logs/stdout.log" >&2 2>/dev/null || true
  kill "$(cat "$pidfile.launch")" 2>/dev/null || true
  exit 1
  ;;
stop)
  pid=""
  [[ -f "$pidfile" ]] && pid=$(cat "$pidfile")
  [[ -z "$pid" && -f "$pidfile.launch" ]] && pid=$(cat "$pidfile.launch")
  if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
    kill -QUIT "$pid"
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
  fi
  rm -f "$pidfile" "$pidfile.launch"
  rm -rf "$rundir/www"
  ;;
*)
  echo "usage: nginx.sh start|stop PORT RUNDIR" >&2
  exit 2
  ;;
esac
