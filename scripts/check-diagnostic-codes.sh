#!/bin/sh
# Every diagnostic code is defined once, in its module's catalogue (an `inline constexpr ... =
# "X123"` line in a header), and used through its name: this fails on a code defined twice or a
# code written as a bare literal anywhere else in the sources. Run by ctest
# (diagnostic_code_catalogues); usage: scripts/check-diagnostic-codes.sh [SOURCE_DIR]
set -eu
root=${1:-$(dirname "$0")/..}
cd "$root"
# Every module: each top-level directory with a CMakeLists.txt and sources, except the tests
# (which pin some codes' values on purpose). Found, not listed, so a new module is checked too.
modules=
for list in */CMakeLists.txt; do
  dir=${list%/CMakeLists.txt}
  [ "$dir" = tests ] && continue
  [ -n "$(find "$dir" -name "*.h" -o -name "*.cpp" | head -1)" ] && modules="$modules $dir"
done
if [ -z "$modules" ]; then
  echo "check-diagnostic-codes: no source modules under $(pwd)" >&2
  exit 2
fi
status=0

# A definition: `inline constexpr ... = "X123";`, or its value alone on the next line where the
# formatter wrapped it.
definition='(inline constexpr[^=]*= *"[A-Z][0-9]{3}"|^[^:]+\.h:[0-9]+: *"[A-Z][0-9]{3}";)'
definitions=$(grep -rnE --include='*.h' '"[A-Z][0-9]{3}"' $modules | grep -E "$definition" |
  sed -E 's/.*"([A-Z][0-9]{3})".*/\1/' | sort)
duplicates=$(printf '%s\n' "$definitions" | uniq -d)
if [ -n "$duplicates" ]; then
  echo "codes defined more than once:" $duplicates
  for code in $duplicates; do grep -rn --include='*.h' "\"$code\"" $modules; done
  status=1
fi

# A literal code outside a catalogue line (comments that show an example code are fine).
literals=$(grep -rnE --include='*.h' --include='*.cpp' '"[A-Z][0-9]{3}"' $modules |
  grep -vE "$definition" |
  grep -vE '^[^:]+:[0-9]+: *(//|\*)' |
  grep -vE '///<.*"[A-Z][0-9]{3}"' || true)
if [ -n "$literals" ]; then
  echo "diagnostic codes written as literals outside their catalogue:"
  printf '%s\n' "$literals"
  status=1
fi
[ "$status" -eq 0 ] && echo "diagnostic codes: $(printf '%s\n' "$definitions" | wc -l) defined once each, no literals in$modules"
exit "$status"
