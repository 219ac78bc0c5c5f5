#!/bin/sh
# The include graph keeps its layers: cli -> app -> modules -> core, no sideways edge. Every
# `#include "DIR/..."` of one of our directories is checked against the table below (the same
# table is in docs/architecture.md); this fails on any edge the table does not allow, naming the
# file and line. Run by ctest (label layers); usage: scripts/check-layers.sh [SOURCE_DIR]
set -eu
root=${1:-$(dirname "$0")/..}
cd "$root"

# The allowed edges: a layer may include its own headers and those of the layers listed after
# the colon. Nothing else of ours; third-party and system headers (<...>) are not checked.
table="core:
transport: core
probes: core transport
analyzers: core
rules: core
reports: core
diagnosis: core analyzers rules
mpi: core
app: core transport probes analyzers rules reports diagnosis mpi
cli: core app
tools: core app transport probes analyzers rules reports diagnosis mpi"
# diagnosis reasons over the results of analyzers and rules (the app puts its conclusion into a
# report: diagnosis knows no report); tools never include cli.

# Single files allowed one more edge, each with the reason. `file edge-layer`, one per line.
# feedcheck-mpi's main owns MPI_Init/MPI_Finalize for the whole process (mpi/mpi_world).
# cmd_probe_mpi is handed that world by main and asks it which rank it is (rank 0 alone prints).
exceptions="cli/mpi_main.cpp mpi
cli/cmd_probe_mpi.cpp mpi"

# diagnosis/ does no file I/O: the analyzers read a job once (each input file opened once) and
# hand it what each node showed. No stream, filesystem or POSIX file header, none of our
# file-reading headers, no call of a reader. Checked before the include table, same format.
io_bad=0
if [ -d diagnosis ]; then
  io_hits=$(grep -rnE --include='*.h' --include='*.cpp' \
    -e '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(fstream|filesystem|cstdio|stdio\.h|fcntl\.h|unistd\.h|sys/stat\.h|sys/mman\.h)>' \
    -e '^[[:space:]]*#[[:space:]]*include[[:space:]]*"(core/input_file|analyzers/input_file|analyzers/line_reader|analyzers/analyze_paths|analyzers/format_detect)\.h"' \
    -e '(std::[io]?fstream|fopen|ReadBounded[A-Za-z]*|ReadHead|FeedFile|FeedInput|AnalyzePaths|InputFile::Open)[[:space:]]*[(<{]' \
    diagnosis || true)
  if [ -n "$io_hits" ]; then
    printf '%s\n' "$io_hits" | awk '{
      file = $0; sub(/:.*/, "", file)
      rest = substr($0, length(file) + 2)
      line = rest; sub(/:.*/, "", line)
      text = substr(rest, length(line) + 2)
      printf "%s:%s: diagnosis may not read files (%s): the analyzers read the job once\n",
        file, line, text
    }'
    io_bad=1
  fi
fi

layers=$(printf '%s\n' "$table" | cut -d: -f1)
dirs=""
for layer in $layers; do [ -d "$layer" ] && dirs="$dirs $layer"; done
# file:line:text of every quoted include of a directory path, in one pass.
# shellcheck disable=SC2086
grep -rnE --include='*.h' --include='*.cpp' \
  '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]+/' $dirs |
  awk -v table="$table" -v exceptions="$exceptions" -v io_bad="$io_bad" '
    BEGIN {
      n = split(table, rows, "\n")
      for (i = 1; i <= n; i++) {
        split(rows[i], parts, ":")
        layer = parts[1]
        ours[layer] = 1
        may[layer] = parts[2]
        allowed[layer, layer] = 1
        m = split(parts[2], deps, " ")
        for (j = 1; j <= m; j++) allowed[layer, deps[j]] = 1
      }
      n = split(exceptions, rows, "\n")
      for (i = 1; i <= n; i++) if (rows[i] != "") { excepted[rows[i]] = 1; unused[rows[i]] = 1 }
    }
    {
      file = $0; sub(/:.*/, "", file)
      rest = substr($0, length(file) + 2)
      line = rest; sub(/:.*/, "", line)
      include = $0; sub(/^[^"]*"/, "", include); sub(/".*/, "", include)
      target = include; sub(/\/.*/, "", target)
      layer = file; sub(/\/.*/, "", layer)
      if (!(target in ours)) next   # not one of ours (tests/, third-party paths)
      edges++
      if ((layer, target) in allowed) next
      if ((file " " target) in excepted) { delete unused[file " " target]; next }
      listed = may[layer]; sub(/^ +/, "", listed)
      printf "%s:%s: %s may not include %s (%s may include: %s)\n", file, line, layer, include,
        layer, listed == "" ? "nothing of ours" : listed " and its own"
      bad++
    }
    END {
      for (e in unused)
        printf "note: exception \"%s\" is no longer needed; remove it from scripts/check-layers.sh\n", e
      if (bad || io_bad) exit 1
      printf "layers: %d includes of our headers checked, every edge allowed; diagnosis/ reads no file\n", edges
    }'
