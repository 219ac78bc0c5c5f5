// lint over real job files: the earlier corpus and public pipelines, components and sweeps
// (tests/data/jobs-public), each run checked against the labels set from the guide before it.
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app/lint_workflow.h"
#include "app_test_support.h"
#include "core/ascii_text.h"

using namespace feedcheck;
using namespace feedcheck::app;
using namespace feedcheck::app::testing;

namespace {

struct Label {
  std::string file;
  std::string flags;
  int exit = 0;
  std::string worst;
  std::vector<std::string> has;
  std::vector<std::string> not_codes;
  int line = 0;
};

std::vector<std::string> Split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, sep);) out.emplace_back(Trim(part));
  return out;
}

std::string After(const std::string& field, const std::string& key) {
  return StartsWith(field, key + "=") ? field.substr(key.size() + 1) : std::string();
}

std::vector<std::string> Codes(const std::string& list) {
  if (list == "-" || list.empty()) return {};
  return Split(list, ',');
}

std::vector<Label> ReadLabels() {
  std::ifstream in(SourcePath("tests/data/jobs-public/labels.txt"));
  std::vector<Label> out;
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (line.empty() || line[0] == '#') continue;
    const auto f = Split(line, '|');
    if (f.size() != 6) FAIL("labels.txt:" << n << ": six fields expected");
    Label l;
    l.file = f[0];
    l.flags = f[1];
    l.exit = std::stoi(After(f[2], "exit"));
    l.worst = After(f[3], "worst");
    l.has = Codes(After(f[4], "has"));
    l.not_codes = Codes(After(f[5], "not"));
    l.line = n;
    out.push_back(std::move(l));
  }
  return out;
}

int Rank(const std::string& severity) {
  if (severity == "none") return -1;
  if (severity == "info") return 0;
  if (severity == "warning") return 1;
  return 2;
}

}  // namespace

TEST_CASE("real job files lint as labelled from the guide, without a false critical",
          "[app][lint][corpus]") {
  const std::vector<Label> labels = ReadLabels();
  // The earlier corpus and at least 30 public files (pipelines and components included).
  REQUIRE(labels.size() >= 40);
  int public_runs = 0;
  for (const Label& label : labels) {
    INFO("labels.txt:" << label.line << ": " << label.file << " (" << label.flags << ")");
    if (StartsWith(label.file, "tests/data/jobs-public/")) ++public_runs;
    LintRequest request;
    request.job = SourcePath(label.file);
    if (label.flags == "sku" || label.flags == "h100") {
      request.sku = label.flags == "sku" ? "Standard_ND96asr_v4" : "Standard_ND96isr_H100_v5";
      request.region = "eastus";
    }
    const LintOutcome lint = RunLint(request);
    for (const auto& d : lint.outcome.diagnostics.kept()) UNSCOPED_INFO(FormatDiagnostic(d));
    CHECK(static_cast<int>(lint.outcome.status) == label.exit);
    int worst = -1;
    std::vector<std::string> codes;
    for (const auto& p : lint.problems) {
      UNSCOPED_INFO(p.code << " " << SeverityName(p.severity) << " line " << p.location.line << ": "
                           << p.message);
      worst = std::max(worst, static_cast<int>(p.severity));
      codes.push_back(p.code);
    }
    CHECK(worst <= Rank(label.worst));
    for (const auto& c : label.has) CHECK(std::find(codes.begin(), codes.end(), c) != codes.end());
    for (const auto& c : label.not_codes)
      CHECK(std::find(codes.begin(), codes.end(), c) == codes.end());
  }
  CHECK(public_runs >= 30);
}
