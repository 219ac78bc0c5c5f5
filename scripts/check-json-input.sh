#!/bin/sh
# JSON input is read one way: through core/json_input (a parse with a nesting limit that never
# throws, and typed reads that turn a wrong type or a number out of range into a diagnostic
# naming the file and the field). This refuses, in every module's sources, the nlohmann calls
# that throw or parse without those checks:
#   json::parse(            (use ParseJsonInput / ReadJsonInputFile)
#   .get<T>() .get_ref<T>() .get_to(   (use JsonField::String/Number/Whole/Bool, or get_ptr)
#   .at(KEY)                (use JsonField's operator[], quiet when absent)
#   .value(KEY, DEFAULT)    (throws when KEY holds another type: use JsonField::StringOr, ...)
# in any file that uses nlohmann's JSON (names `nlohmann`, or includes a *json*.h header). Code
# that only builds JSON for output uses none of them. Files allowed, each with its reason, are
# listed below; a listed file that no longer needs it is reported too. Run by ctest ("scripts:
# check-json-input.sh refuses throwing JSON reads", tests/scripts).
# Usage: scripts/check-json-input.sh [SOURCE_DIR]
set -eu
root=${1:-$(dirname "$0")/..}
cd "$root"
if [ ! -f core/json_input.h ]; then
  echo "check-json-input: no core/json_input.h under $(pwd)" >&2
  exit 2
fi

# file|reason
# (core/json_input.* is the checked module itself.)
allowed='core/json_text.cpp|parses back the string it has just dumped itself (no input)'

# Every module: each top-level directory with a CMakeLists.txt and sources, except the tests.
modules=
for list in */CMakeLists.txt; do
  dir=${list%/CMakeLists.txt}
  [ "$dir" = tests ] && continue
  [ -n "$(find "$dir" -name "*.h" -o -name "*.cpp" | head -1)" ] && modules="$modules $dir"
done

refused='[A-Za-z_]*[jJ]son::parse *\(|\.get<|\.get_ref<|get_to *\(|\.at *\(|\.value *\( *[^) ]'
status=0
# shellcheck disable=SC2086
for file in $(find $modules \( -name "*.cpp" -o -name "*.h" \) | sort); do
  case "$file" in core/json_input.*) continue ;; esac
  if ! grep -qE 'nlohmann|#include "[a-z_/]*json[a-z_]*\.h"' "$file"; then continue; fi
  if printf '%s\n' "$allowed" | cut -d'|' -f1 | grep -qx "$file"; then
    if ! grep -qE "$refused" "$file"; then
      echo "$file: allowed in scripts/check-json-input.sh but no longer needs it; remove it there"
      status=1
    fi
    continue
  fi
  # Comments are not code: drop // comments before matching.
  hits=$(sed -E 's@//.*$@@' "$file" | grep -nE "$refused" || true)
  if [ -n "$hits" ]; then
    printf '%s\n' "$hits" | while IFS= read -r hit; do
      echo "$file:${hit%%:*}: reads JSON with a call that throws or skips the checks: ${hit#*:}"
    done
    status=1
  fi
done
if [ "$status" -ne 0 ]; then
  echo "check-json-input: read JSON input through core/json_input.h (ParseJsonInput, JsonField)"
fi
exit "$status"
