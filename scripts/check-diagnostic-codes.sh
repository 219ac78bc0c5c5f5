#!/bin/sh
# Every diagnostic code is defined once, in the registry (core/diagnostic_codes.h: an
# `inline constexpr const char* kName = "X123";` line in namespace codes), described once in its
# table (core/diagnostic_codes.cpp), and used through its name: this fails on a code defined
# twice, a name without a table entry (or an entry twice), or a code written as a bare literal
# anywhere else in the sources. Run by ctest (diagnostic_code_registry); usage:
# scripts/check-diagnostic-codes.sh [SOURCE_DIR]
set -eu
root=${1:-$(dirname "$0")/..}
cd "$root"
header=core/diagnostic_codes.h
table=core/diagnostic_codes.cpp
if [ ! -f "$header" ] || [ ! -f "$table" ]; then
  echo "check-diagnostic-codes: no registry ($header, $table) under $(pwd)" >&2
  exit 2
fi
# Every module: each top-level directory with a CMakeLists.txt and sources, except the tests
# (which pin some codes' values on purpose). Found, not listed, so a new module is checked too.
modules=
for list in */CMakeLists.txt; do
  dir=${list%/CMakeLists.txt}
  [ "$dir" = tests ] && continue
  [ -n "$(find "$dir" -name "*.h" -o -name "*.cpp" | head -1)" ] && modules="$modules $dir"
done
status=0

# A definition: `inline constexpr const char* kName = "X123";`, or its value alone on the next
# line where the formatter wrapped it.
definition='(inline constexpr[^=]*= *"[A-Z][0-9]{3}"|^ *"[A-Z][0-9]{3}";)'
definitions=$(grep -E "$definition" "$header" | sed -E 's/.*"([A-Z][0-9]{3})".*/\1/' | sort)
duplicates=$(printf '%s\n' "$definitions" | uniq -d)
if [ -n "$duplicates" ]; then
  echo "codes defined more than once in $header:" $duplicates
  status=1
fi

# Each name has exactly one entry in the table (the table's static_assert keeps it in code order).
names=$(grep -oE 'inline constexpr const char\* k[A-Za-z0-9]+' "$header" | sed -E 's/.* //')
# The table's entries, one name a line (the formatter may wrap an entry after its brace).
entry_names=$(tr -s ' \n' ' ' <"$table" | grep -oE 'DiagnosticCodeInfo\{ ?codes::k[A-Za-z0-9]+,' |
  sed -E 's/.*codes::(k[A-Za-z0-9]+),/\1/')
for name in $names; do
  entries=$(printf '%s\n' "$entry_names" | grep -cx "$name" || true)
  if [ "$entries" -ne 1 ]; then
    echo "codes::$name has $entries entries in $table's table (want 1)"
    status=1
  fi
done
count=$(printf '%s\n' "$entry_names" | grep -c . || true)
if [ "$count" -ne "$(printf '%s\n' "$names" | grep -c .)" ]; then
  echo "$table's table has $count entries for $(printf '%s\n' "$names" | grep -c .) names"
  status=1
fi

# A literal code outside the registry's definitions (comments that show an example code are
# fine).
literals=$(grep -rnE --include='*.h' --include='*.cpp' '"[A-Z][0-9]{3}"' $modules |
  grep -vE "^$header:[0-9]+:$definition" |
  grep -vE '^[^:]+:[0-9]+: *(//|\*)' |
  grep -vE '///<.*"[A-Z][0-9]{3}"' || true)
if [ -n "$literals" ]; then
  echo "diagnostic codes written as literals outside $header:"
  printf '%s\n' "$literals"
  status=1
fi
[ "$status" -eq 0 ] && echo "diagnostic codes: $(printf '%s\n' "$definitions" | wc -l) defined once each in $header, each described once in $table, no literals in$modules"
exit "$status"
