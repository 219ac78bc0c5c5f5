#!/bin/sh
# Every file the tools write goes through the one writer (core/atomic_file: never through a
# link, never outside the folder given, a temporary created exclusively and removed on a
# signal). This fails on any other way to write a file in the product's sources, naming the
# file and line: std::ofstream / std::fstream, fopen or freopen for writing, open/openat/creat
# with O_CREAT, O_WRONLY or O_RDWR, rename/renameat, mkstemp, std::filesystem::copy*/rename,
# and child output redirected to a file. Tests and fuzzers are not checked (they plant the
# links and files the writer must refuse). Run by ctest (label safety); usage:
#   scripts/check-writes.sh [SOURCE_DIR]
set -eu
root=${1:-$(dirname "$0")/..}
cd "$root"

# Files allowed a write path of their own, each with its reason. `file`, one per line.
# - core/atomic_file.cpp: the writer itself.
# - probes/disk_io_linux.cpp: `probe disk` measures the device with O_DIRECT on one scratch file
#   it creates exclusively (O_CREAT|O_EXCL) in the folder given and removes; the writer's
#   buffered, renamed file would measure the page cache, not the disk.
# - tools/netdelay/netdelay.cpp: the benchmarks' delay tool opens the TUN device
#   (/dev/net/tun) read-write; it writes packets, no file.
allowed="core/atomic_file.cpp
probes/disk_io_linux.cpp
tools/netdelay/netdelay.cpp"

dirs="core transport probes analyzers rules reports diagnosis mpi app cli tools"
pattern='std::ofstream|std::fstream|[^i]ofstream[ (<]|\bfopen *\([^)]*"[wa+]|\bfreopen *\(|\bcreat *\(|O_CREAT|O_WRONLY|O_RDWR|\brenameat2? *\(|std::rename *\(|[^a-z_]rename *\(|\bmkstemp|\bmkostemp|filesystem::copy|fs::copy|filesystem::rename|fs::rename|addopen *\([^)]*O_W'

# One grep over every source, then each hit looked at alone: comments are not code.
files=$(for dir in $dirs; do
  [ -d "$dir" ] && find "$dir" -name node_modules -prune -o \( -name '*.cpp' -o -name '*.h' \) -print
done | sort)
found=$(printf '%s\n' "$files" | xargs grep -nHE "$pattern" /dev/null || true)
bad=$(printf '%s\n' "$found" | while IFS= read -r hit; do
  [ -n "$hit" ] || continue
  file=${hit%%:*}
  rest=${hit#*:}
  line=${rest%%:*}
  code=$(printf '%s\n' "${rest#*:}" | sed 's|//.*$||')
  printf '%s\n' "$code" | grep -qE "$pattern" || continue
  printf '%s\n' "$allowed" | grep -qx "$file" && continue
  echo "$file:$line: writes a file outside core/atomic_file ($(printf '%s' "$code" | sed 's/^ *//'))"
done)
status=0
if [ -n "$bad" ]; then
  printf '%s\n' "$bad"
  status=1
fi
if [ "$status" -ne 0 ]; then
  echo "check-writes: write through core/atomic_file (WriteFileAtomically, WriteFileUnder)," \
    "or add the file to the allowed list with its reason" >&2
  exit 1
fi
# A listed exception that no longer writes is stale: say so, so the list stays honest.
for file in $allowed; do
  if ! sed 's|//.*$||' "$file" | grep -qE "$pattern"; then
    echo "check-writes: $file no longer needs its exception; remove it from the list" >&2
    exit 1
  fi
done
echo "check-writes: every write path goes through core/atomic_file"
