#!/bin/sh
# A test of scripts/check-writes.sh: it passes on a copy of the source tree, and fails, naming
# the file and line, once another way to write a file is planted in that copy (std::ofstream in
# app/, fopen "w" in cli/, open with O_CREAT in probes/, rename in tools/, fs::copy_file in
# reports/, mkstemp in core/). The same for scripts/check-children.sh and a process started
# outside app/process_runner.cpp (system in cli/, fork in probes/, popen in app/).
# Usage: check_writes_test.sh SOURCE_DIR SCRATCH_DIR
set -eu
src=$1
scratch=$2
check="$src/scripts/check-writes.sh"
fail() {
  echo "FAIL: $*"
  exit 1
}

rm -rf "$scratch"
mkdir -p "$scratch"
(cd "$src" && find core transport probes analyzers rules reports diagnosis mpi app cli tools \
  -name node_modules -prune -o \( -name '*.h' -o -name '*.cpp' \) -print |
  tar -cf - -T -) | (cd "$scratch" && tar -xf -)

sh "$check" "$scratch" >"$scratch/clean.out" 2>&1 || {
  cat "$scratch/clean.out"
  fail "the unmodified tree should pass"
}

# plant FILE CODE: appends a line of code to a copy of FILE, expects a failure naming the line.
plant() {
  file=$1
  code=$2
  cp "$scratch/$file" "$scratch/$file.orig"
  printf '%s\n' "$code" >>"$scratch/$file"
  line=$(wc -l <"$scratch/$file" | tr -d ' ')
  if sh "$check" "$scratch" >"$scratch/planted.out" 2>&1; then
    cat "$scratch/planted.out"
    fail "$file with '$code' should fail"
  fi
  grep -q "^$file:$line: writes a file outside core/atomic_file" "$scratch/planted.out" || {
    cat "$scratch/planted.out"
    fail "the message should name $file:$line"
  }
  mv "$scratch/$file.orig" "$scratch/$file"
}

plant app/fetch_workflow.cpp 'void W() { std::ofstream out("x"); }'
plant cli/report_output.cpp 'void W() { FILE* f = fopen(path, "w"); }'
plant probes/test_data.cpp 'int W() { return open(p, O_WRONLY | O_CREAT, 0644); }'
plant tools/seed_dataset.cpp 'int W() { return std::rename("a", "b"); }'
plant reports/reporter.cpp 'void W() { std::filesystem::copy_file("a", "b"); }'
plant core/redact.cpp 'int W() { char t[] = "xXXXXXX"; return mkstemp(t); }'
# A comment that names them is not code.
printf '%s\n' '// std::ofstream, fopen("w") and O_CREAT are refused' >>"$scratch/core/redact.cpp"
sh "$check" "$scratch" >"$scratch/comment.out" 2>&1 || {
  cat "$scratch/comment.out"
  fail "a comment should not count"
}

children="$src/scripts/check-children.sh"
sh "$children" "$scratch" >"$scratch/children.out" 2>&1 || {
  cat "$scratch/children.out"
  fail "the unmodified tree should pass the children check"
}
spawn() {
  file=$1
  code=$2
  cp "$scratch/$file" "$scratch/$file.orig"
  printf '%s\n' "$code" >>"$scratch/$file"
  line=$(wc -l <"$scratch/$file" | tr -d ' ')
  if sh "$children" "$scratch" >"$scratch/planted.out" 2>&1; then
    cat "$scratch/planted.out"
    fail "$file with '$code' should fail the children check"
  fi
  grep -q "^$file:$line: starts a process outside" "$scratch/planted.out" || {
    cat "$scratch/planted.out"
    fail "the message should name $file:$line"
  }
  mv "$scratch/$file.orig" "$scratch/$file"
}
spawn cli/main.cpp 'int W() { return system("az"); }'
spawn probes/test_data.cpp 'int W() { return fork(); }'
spawn app/fetch_workflow.cpp 'void W() { popen("az", "r"); }'
echo "check_writes_test: all planted writes and processes refused"
