#!/usr/bin/env bash
# Checks that every C++ file of the source tree is formatted as .clang-format says, changing
# nothing: clang-format --dry-run -Werror over every .h/.cpp under the source directories (build
# directories, tools/azurite's node_modules and fuzz corpora are not sources).
# Usage: scripts/check-format.sh        exit 0 formatted, 1 a file differs (run clang-format -i)
set -euo pipefail
cd "$(dirname "$0")/.."
clang_format=${CLANG_FORMAT:-clang-format}
mapfile -t files < <(find app analyzers cli core diagnosis mpi probes reports transport rules tests tools \
  -type d \( -name node_modules -o -name corpus \) -prune -o \
  -type f \( -name '*.h' -o -name '*.cpp' \) -print | sort)
if ! "$clang_format" --dry-run -Werror "${files[@]}"; then
  echo "check-format: files above differ from .clang-format; fix with: $clang_format -i FILE"
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
