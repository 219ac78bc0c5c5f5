// The edges corpus (tests/data/edges): profiles and job files at the edges of the advice, each
// with the advice expected of it written by hand from the guide and the knowledge base. Every
// NAME.expect file is one feedcheck command line and the checks its output must pass; the
// format is in tests/data/edges/README.md.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "run_feedcheck.h"

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

const std::string kDir = std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/edges";

std::string Trim(std::string s) {
  const char* space = " \t\r";
  s.erase(0, s.find_first_not_of(space));
  s.erase(s.find_last_not_of(space) + 1);
  return s;
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, sep);) out.push_back(Trim(part));
  return out;
}

// "KEY = VALUE" -> {KEY, VALUE}.
std::pair<std::string, std::string> KeyValue(const std::string& s) {
  auto eq = s.find('=');
  if (eq == std::string::npos) return {Trim(s), ""};
  return {Trim(s.substr(0, eq)), Trim(s.substr(eq + 1))};
}

// A JSON value against the expectation's text: numbers within 0.1% (and exact to 1e-9 near 0),
// booleans as true/false, strings exactly.
bool Matches(const Json& value, const std::string& want) {
  if (value.is_number()) {
    char* end = nullptr;
    double w = std::strtod(want.c_str(), &end);
    if (end == want.c_str() || *end != '\0') return false;
    double v = value.get<double>();
    return std::fabs(v - w) <= std::max(1e-9, 1e-3 * std::fabs(w));
  }
  if (value.is_boolean()) return (value.get<bool>() ? "true" : "false") == want;
  if (value.is_string()) return value.get<std::string>() == want;
  return value.dump() == want;
}

std::string ArgsText(std::string line) {
  for (size_t at; (at = line.find("{dir}")) != std::string::npos;) line.replace(at, 5, kDir);
  return line;
}

std::vector<std::string> SplitWords(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

const Json* FactOf(const Json& j, const std::string& key) {
  if (!j.contains("evidence")) return nullptr;
  for (const auto& f : j["evidence"]["facts"])
    if (f["key"] == key) return &f["value"];
  return nullptr;
}

const Json* TableOf(const Json& j, const std::string& title) {
  if (!j.contains("tables")) return nullptr;
  for (const auto& t : j["tables"])
    if (t["title"] == title) return &t;
  return nullptr;
}

// A lint problem: "CODE | TEXT | line=N | severity=S | change~TEXT" against the Problems table.
bool LintMatches(const Json& row, const std::vector<std::string>& parts) {
  if (row.value("code", "") != parts[0]) return false;
  if (parts.size() > 1 && !parts[1].empty() &&
      !Has(row.value("message", "") + " " + row.value("change", ""), parts[1]))
    return false;
  for (size_t i = 2; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    if (auto tilde = p.find('~'); tilde != std::string::npos && tilde < p.find('=')) {
      if (!Has(row.value(p.substr(0, tilde), ""), p.substr(tilde + 1))) return false;
      continue;
    }
    auto [key, want] = KeyValue(p);
    if (!row.contains(key) || !Matches(row[key], want)) return false;
  }
  return true;
}

bool AnyLint(const Json& j, const std::vector<std::string>& parts) {
  const Json* problems = TableOf(j, "Problems");
  if (!problems) return false;
  for (const auto& row : (*problems)["rows"])
    if (LintMatches(row, parts)) return true;
  return false;
}

// Runs one .expect file; every failed check is reported with the file and line.
void CheckCase(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::pair<int, std::string>> lines;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    line = Trim(line);
    if (!line.empty() && line[0] != '#') lines.emplace_back(number, line);
  }
  REQUIRE(!lines.empty());
  REQUIRE(lines[0].second.rfind("run:", 0) == 0);
  const std::vector<std::string> args = SplitWords(ArgsText(lines[0].second.substr(4)));
  const RunResult r = RunFeedcheck(args);
  const Json j = r.Json();
  for (size_t i = 1; i < lines.size(); ++i) {
    const auto& [at, line] = lines[i];
    const auto colon = line.find(':');
    REQUIRE(colon != std::string::npos);
    const std::string kind = line.substr(0, colon);
    const std::string arg = Trim(line.substr(colon + 1));
    INFO(path.filename().string() << ":" << at << ": " << line);
    INFO("stderr: " << r.err);
    if (kind == "exit") {
      CHECK(r.exit_code == std::stoi(arg));
    } else if (kind == "err") {
      CHECK(Has(r.err, arg));
    } else if (kind == "out") {
      CHECK(Has(r.out, arg));
    } else if (kind == "not-out") {
      CHECK_FALSE(Has(r.out, arg));
    } else if (kind == "finding") {
      auto w = SplitWords(arg);
      const Json* f = FindingOf(j, w[0]);
      CHECK(f != nullptr);
      if (f && w.size() > 1) CHECK((*f)["severity"] == w[1]);
    } else if (kind == "no-finding") {
      CHECK(FindingOf(j, arg) == nullptr);
    } else if (kind == "says" || kind == "not-says") {
      auto parts = Split(arg, '|');
      const Json* f = FindingOf(j, parts[0]);
      REQUIRE(f != nullptr);
      INFO("message: " << (*f)["message"].get<std::string>());
      CHECK(Has((*f)["message"].get<std::string>(), parts[1]) == (kind == "says"));
    } else if (kind == "skipped") {
      bool found = false;
      for (const auto& s : j["skipped"]) found = found || s["rule_id"] == arg;
      CHECK(found);
    } else if (kind == "env" || kind == "no-env") {
      auto [name, want] = KeyValue(arg);
      const Json* value = nullptr;
      for (const auto& e : j["env"])
        if (e["name"] == name) value = &e["value"];
      if (kind == "no-env") {
        CHECK(value == nullptr);
      } else {
        REQUIRE(value != nullptr);
        CHECK(Matches(*value, want));
      }
    } else if (kind == "fact") {
      auto [key, want] = KeyValue(arg);
      const Json* value = FactOf(j, key);
      REQUIRE(value != nullptr);
      INFO("value: " << value->dump());
      CHECK(Matches(*value, want));
    } else if (kind == "result" || kind == "not-result") {
      auto [key, want] = KeyValue(arg);
      const bool match =
          j.contains("result") && j["result"].contains(key) && Matches(j["result"][key], want);
      INFO("result: " << (j.contains("result") ? j["result"].dump() : "none"));
      CHECK(match == (kind == "result"));
    } else if (kind == "row") {
      auto parts = Split(arg, '|');
      const Json* table = TableOf(j, parts[0]);
      REQUIRE(table != nullptr);
      bool found = false;
      for (const auto& row : (*table)["rows"]) {
        bool all = true;
        for (size_t p = 1; p < parts.size(); ++p) {
          auto [key, want] = KeyValue(parts[p]);
          all = all && row.contains(key) && Matches(row[key], want);
        }
        found = found || all;
      }
      CHECK(found);
    } else if (kind == "lint" || kind == "no-lint") {
      auto parts = Split(arg, '|');
      INFO("problems: " << (TableOf(j, "Problems") ? (*TableOf(j, "Problems"))["rows"].dump()
                                                   : std::string("none")));
      CHECK(AnyLint(j, parts) == (kind == "lint"));
    } else {
      FAIL("unknown check '" << kind << "'");
    }
  }
}

}  // namespace

TEST_CASE("edges corpus: advise, plan, egress and lint against hand-computed expectations",
          "[cli][advise][plan][egress][lint][edges]") {
  std::vector<fs::path> cases;
  for (const auto& entry : fs::recursive_directory_iterator(kDir))
    if (entry.path().extension() == ".expect") cases.push_back(entry.path());
  std::sort(cases.begin(), cases.end());
  REQUIRE(cases.size() >= 20);
  for (const auto& path : cases) {
    DYNAMIC_SECTION(fs::relative(path, kDir).generic_string()) { CheckCase(path); }
  }
}
