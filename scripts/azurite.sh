#!/usr/bin/env bash
# Starts or stops Azurite's blob service (pinned in tools/azurite) on loopback for tests.
# Usage: scripts/azurite.sh start PORT RUNDIR   |   scripts/azurite.sh stop PORT RUNDIR
# In-memory persistence, no telemetry (it would leave the machine), readiness wait bounded to
# 20 s; stop signals the recorded PID only. Installs the pinned package with `npm ci` when
# node_modules is missing.
set -euo pipefail
action=${1:?usage: azurite.sh start|stop PORT RUNDIR}
port=${2:?port}
rundir=${3:?run directory}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$rundir"
rundir=$(cd "$rundir" && pwd)
pidfile="$rundir/azurite.pid"
main="$root/tools/azurite/node_modules/azurite/dist/src/blob/main.js"

case "$action" in
start)
  if [[ -f "$pidfile" ]] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
    echo "azurite.sh: already running (pid $(cat "$pidfile"))" >&2
    exit 0
  fi
  if [[ ! -f "$main" ]]; then
    echo "azurite.sh: installing the pinned Azurite (npm ci in tools/azurite)" >&2
    (cd "$root/tools/azurite" && npm ci --no-audit --no-fund --loglevel=error >&2)
  fi
  node "$main" --blobHost 127.0.0.1 --blobPort "$port" --disableTelemetry \
    --inMemoryPersistence --skipApiVersionCheck --loose --silent \
    >"$rundir/azurite.log" 2>&1 &
  echo $! >"$pidfile"
  for _ in $(seq 1 400); do
    # Any HTTP answer (400 for a bare GET) means it is listening.
    code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/" || true)
    if [[ "$code" != "000" ]]; then
      echo "azurite.sh: blob service on 127.0.0.1:$port (pid $(cat "$pidfile"))" >&2
      exit 0
    fi
    kill -0 "$(cat "$pidfile")" 2>/dev/null || break
    sleep 0.05
  done
  echo "azurite.sh: Azurite did not start on port $port:" >&2
  cat "$rundir/azurite.log" >&2 || true
  kill "$(cat "$pidfile")" 2>/dev/null || true
  rm -f "$pidfile"
  exit 1
  ;;
stop)
  if [[ -f "$pidfile" ]]; then
    pid=$(cat "$pidfile")
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid"
      for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
      kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    fi
    rm -f "$pidfile"
  fi
  ;;
*)
  echo "usage: azurite.sh start|stop PORT RUNDIR" >&2
  exit 2
  ;;
esac
