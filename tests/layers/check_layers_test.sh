#!/bin/sh
# A test of scripts/check-layers.sh: it passes on a copy of the source tree, and fails, naming
# the file and line, once a forbidden include is planted in that copy (cli -> probes, core ->
# reports, tools -> cli, probes -> rules, diagnosis -> reports).
# Usage: check_layers_test.sh SOURCE_DIR SCRATCH_DIR
set -eu
src=$1
scratch=$2
check="$src/scripts/check-layers.sh"
fail() {
  echo "FAIL: $*"
  exit 1
}

rm -rf "$scratch"
mkdir -p "$scratch"
# Every layer's sources as they are (tools/ without Azurite's node_modules), in one tar pipe.
(cd "$src" && find core transport probes analyzers rules reports diagnosis mpi app cli tools \
  -name node_modules -prune -o \( -name '*.h' -o -name '*.cpp' \) -print |
  tar -cf - -T -) | (cd "$scratch" && tar -xf -)

sh "$check" "$scratch" >"$scratch/clean.out" 2>&1 || {
  cat "$scratch/clean.out"
  fail "the unmodified tree should pass"
}

# plant FILE INCLUDE: appends the include to a copy of FILE, expects a failure naming the line.
plant() {
  file=$1
  include=$2
  cp "$scratch/$file" "$scratch/$file.orig"
  printf '#include "%s"\n' "$include" >>"$scratch/$file"
  line=$(wc -l <"$scratch/$file" | tr -d ' ')
  if sh "$check" "$scratch" >"$scratch/planted.out" 2>&1; then
    cat "$scratch/planted.out"
    fail "$file including $include should fail"
  fi
  grep -q "^$file:$line: .* may not include $include" "$scratch/planted.out" || {
    cat "$scratch/planted.out"
    fail "the message should name $file:$line and $include"
  }
  mv "$scratch/$file.orig" "$scratch/$file"
  echo "ok: $file -> $include refused"
}

plant cli/main.cpp probes/redact.h
plant core/units.h reports/report.h
plant tools/facts_doc.cpp cli/command.h
plant probes/probe.h rules/rule_set.h
plant app/outcome.h cli/command.h
plant transport/http_client.h probes/probe.h
plant diagnosis/postmortem_diagnosis.h reports/report.h

# diagnosis/ reads no file: a stream header or a reader's call there is refused, named.
for planted in '#include <fstream>' '#include "analyzers/analyze_paths.h"' \
  '  std::string head = ReadHead(path);'; do
  cp "$scratch/diagnosis/idle_nodes.cpp" "$scratch/idle_nodes.orig"
  printf '%s\n' "$planted" >>"$scratch/diagnosis/idle_nodes.cpp"
  line=$(wc -l <"$scratch/diagnosis/idle_nodes.cpp" | tr -d ' ')
  if sh "$check" "$scratch" >"$scratch/planted.out" 2>&1; then
    cat "$scratch/planted.out"
    fail "diagnosis reading a file ($planted) should fail"
  fi
  grep -q "^diagnosis/idle_nodes.cpp:$line: diagnosis may not read files" "$scratch/planted.out" || {
    cat "$scratch/planted.out"
    fail "the message should name diagnosis/idle_nodes.cpp:$line"
  }
  mv "$scratch/idle_nodes.orig" "$scratch/diagnosis/idle_nodes.cpp"
  echo "ok: diagnosis -> $planted refused"
done

# An exception no file needs any more is named, so the table does not keep stale lines.
grep -v '#include "mpi/' "$scratch/cli/mpi_main.cpp" >"$scratch/mpi_main.cpp"
cp "$scratch/cli/mpi_main.cpp" "$scratch/mpi_main.orig"
mv "$scratch/mpi_main.cpp" "$scratch/cli/mpi_main.cpp"
sh "$check" "$scratch" >"$scratch/stale.out" 2>&1 || fail "a stale exception is a note, not a failure"
grep -q 'exception "cli/mpi_main.cpp mpi" is no longer needed' "$scratch/stale.out" || {
  cat "$scratch/stale.out"
  fail "the stale exception should be named"
}
mv "$scratch/mpi_main.orig" "$scratch/cli/mpi_main.cpp"
echo "ok: a stale exception is named"

# Allowed edges stay allowed: app -> diagnosis, cli -> app.
printf '#include "diagnosis/diagnosis.h"\n' >>"$scratch/app/outcome.cpp"
printf '#include "app/outcome.h"\n' >>"$scratch/cli/main.cpp"
sh "$check" "$scratch" >"$scratch/allowed.out" 2>&1 || {
  cat "$scratch/allowed.out"
  fail "app -> diagnosis and cli -> app are allowed"
}
echo "ok: allowed edges pass"
rm -rf "$scratch"
