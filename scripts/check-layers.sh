#!/bin/sh
# The include graph keeps its layers: cli -> app -> modules -> core, no sideways edge. Every
# `#include "DIR/..."` of one of our directories is checked against the table below (the same
# table is in docs/architecture.md); this fails on any edge the table does not allow, naming the
# file and line. Run by ctest (label layers); usage: scripts/check-layers.sh [SOURCE_DIR]
set -eu
root=${1:-$(dirname "$0")/..}
cd "$root"

# The allowed edges: a layer may include its own headers and those of the layers listed here.
# Nothing else of ours; third-party and system headers (<...>) are not checked.
allowed() {
  case "$1" in
    core) echo "" ;;                                    # depends on nothing of ours
    probes) echo "core" ;;
    analyzers) echo "core" ;;
    rules) echo "core" ;;
    reports) echo "core" ;;
    diagnosis) echo "core analyzers rules reports" ;;   # reasons over their results
    mpi) echo "core" ;;
    app) echo "core probes analyzers rules reports diagnosis mpi" ;;
    cli) echo "core app" ;;
    tools) echo "core app probes analyzers rules reports diagnosis mpi" ;;  # never cli
  esac
}
layers="core probes analyzers rules reports diagnosis mpi app cli tools"

# Single files allowed one more edge, each with the reason. `file edge-layer`, one per line.
# feedcheck-mpi's main owns MPI_Init/MPI_Finalize for the whole process (mpi/mpi_world).
# cmd_probe_mpi is handed that world by main and asks it which rank it is (rank 0 alone prints).
exceptions="cli/mpi_main.cpp mpi
cli/cmd_probe_mpi.cpp mpi"

status=0
used_exceptions=""
edges=0
for layer in $layers; do
  [ -d "$layer" ] || continue
  ok=" $layer $(allowed "$layer") "
  # file:line:#include "dir/..." for every quoted include of one of our directories.
  hits=$(grep -rnE --include='*.h' --include='*.cpp' \
    '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]+/' "$layer" || true)
  [ -n "$hits" ] || continue
  while IFS= read -r hit; do
    file=${hit%%:*}
    rest=${hit#*:}
    line=${rest%%:*}
    target=$(printf '%s\n' "$hit" | sed -E 's/.*#[[:space:]]*include[[:space:]]*"([a-z_]+)\/.*/\1/')
    case " $layers " in *" $target "*) ;; *) continue ;; esac  # not one of ours (tests/, ...)
    edges=$((edges + 1))
    case "$ok" in *" $target "*) continue ;; esac
    if printf '%s\n' "$exceptions" | grep -qx "$file $target"; then
      used_exceptions="$used_exceptions
$file $target"
      continue
    fi
    include=$(printf '%s\n' "$hit" | sed -E 's/.*"([^"]+)".*/\1/')
    echo "$file:$line: $layer may not include $include ($layer may include: $(allowed "$layer" | sed 's/^$/nothing of ours/') and its own)"
    status=1
  done <<HITS
$hits
HITS
done

# An exception no file needs any more is stale: say so, so it is removed from the table.
printf '%s\n' "$exceptions" | while IFS= read -r e; do
  [ -n "$e" ] || continue
  printf '%s\n' "$used_exceptions" | grep -qx "$e" ||
    echo "note: exception '$e' is no longer needed; remove it from scripts/check-layers.sh"
done

if [ "$status" -eq 0 ]; then
  echo "layers: $edges includes of our headers checked, every edge allowed"
fi
exit "$status"
