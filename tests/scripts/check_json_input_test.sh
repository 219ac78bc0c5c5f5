#!/bin/bash
# scripts/check-json-input.sh passes on the tree, and refuses each throwing read planted in a
# scratch copy of a module, naming the file and line; a file that builds JSON for output only
# (no throwing call) passes. Usage: check_json_input_test.sh SOURCE_DIR
set -u
src=$1
check="$src/scripts/check-json-input.sh"
fail=0
sh "$check" "$src" || { echo "FAIL: the tree itself is refused"; fail=1; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/core" "$scratch/app"
cp "$src/core/json_input.h" "$src/core/json_input.cpp" "$src/core/json_text.cpp" "$scratch/core/"
touch "$scratch/core/CMakeLists.txt" "$scratch/app/CMakeLists.txt"
cat >"$scratch/app/output_only.cpp" <<'CPP'
#include <nlohmann/json.hpp>
nlohmann::json Build() { return {{"a", 1}}; }  // j.at("x") in a comment is not code
CPP
sh "$check" "$scratch" >/dev/null || { echo "FAIL: output-only JSON refused"; fail=1; }

while IFS='|' read -r line; do
  cat >"$scratch/app/reader.cpp" <<CPP
#include <nlohmann/json.hpp>
void Read(const nlohmann::json& j) {
  $line
}
CPP
  out=$(sh "$check" "$scratch" 2>&1)
  if [ $? -eq 0 ] || ! grep -q "app/reader.cpp:3:" <<<"$out"; then
    echo "FAIL: not refused with its file and line: $line"
    echo "$out"
    fail=1
  fi
done <<'CASES'
auto v = j.at("result");
double d = j["result"].get<double>();
auto s = j.value("name", "");
std::string t; j["name"].get_to(t);
const auto& r = j["name"].get_ref<const std::string&>();
auto doc = nlohmann::json::parse(text);
CASES
[ $fail -eq 0 ] && echo "check-json-input: all planted reads refused"
exit $fail
