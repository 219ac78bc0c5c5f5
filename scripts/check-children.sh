#!/bin/sh
# Every child process starts in one place, app/process_runner.cpp, which puts it in a process
# group of its own (killed whole at the time limit, when it exits and on a signal), registers
# that group with core/exit_cleanup, and redacts all of its output once. This fails on any
# other way to start a program in the product's sources (posix_spawn, fork, exec*, popen,
# system), naming the file and line, and when the runner loses one of those three duties.
# Run by ctest (label safety); usage: scripts/check-children.sh [SOURCE_DIR]
set -eu
root=${1:-$(dirname "$0")/..}
cd "$root"
runner=app/process_runner.cpp
pattern='posix_spawn|\bfork *\(|\bvfork *\(|\bexec[lv]p?e? *\(|\bpopen *\(|[^a-z_:.>]system *\(|\bclone *\('
files=$(for dir in core transport probes analyzers rules reports diagnosis mpi app cli tools; do
  [ -d "$dir" ] && find "$dir" -name node_modules -prune -o \( -name '*.cpp' -o -name '*.h' \) -print
done | sort)
status=0
found=$(printf '%s\n' "$files" | xargs grep -nHE "$pattern" /dev/null || true)
bad=$(printf '%s\n' "$found" | while IFS= read -r hit; do
  [ -n "$hit" ] || continue
  file=${hit%%:*}
  rest=${hit#*:}
  code=$(printf '%s\n' "${rest#*:}" | sed 's|//.*$||')
  printf '%s\n' "$code" | grep -qE "$pattern" || continue
  [ "$file" = "$runner" ] && continue
  echo "$file:${rest%%:*}: starts a process outside $runner ($(printf '%s' "$code" | sed 's/^ *//'))"
done)
if [ -n "$bad" ]; then
  printf '%s\n' "$bad"
  status=1
fi
for duty in POSIX_SPAWN_SETPGROUP 'kill\(-pid' RegisterChildGroup RedactText; do
  if ! grep -qE "$duty" "$runner"; then
    echo "$runner: no longer does $duty (a group of its own, killed whole, registered, redacted)"
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "check-children: every child starts in $runner, in a group of its own"
exit "$status"
