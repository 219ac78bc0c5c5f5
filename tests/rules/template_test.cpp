#include "rules/template.h"

#include <catch2/catch.hpp>

#include "rules/rule_messages.h"
#include "test_facts.h"

using namespace feedcheck;
using namespace feedcheck::rules;
using feedcheck::rules::test::Facts;

namespace {
std::string Render(const std::string& text, const FactSet& facts, Style style = Style::kHuman,
                   std::vector<std::string>* missing = nullptr) {
  Template t;
  DiagnosticList d;
  if (!CompileTemplate(SourceText::Inline(text), FactRegistry::Builtin(), "t", &t, &d))
    return "error " + d.kept().front().code + " col " +
           std::to_string(d.kept().front().location.column);
  std::vector<std::string> ignored;
  return RenderTemplate(t, facts, missing ? missing : &ignored, style);
}
}  // namespace

TEST_CASE("placeholders print facts in their human form", "[rules][template]") {
  FactSet f = Facts({"dataset.median_file_bytes=4MiB", "node.vcpus=96", "dataset.files=2000000",
                     "node.nic_gbps=24Gbit/s", "workload.mode=download"});
  CHECK(Render("median {dataset.median_file_bytes}", f) == "median 4.00 MiB");
  CHECK(Render("{dataset.files} files", f) == "2,000,000 files");
  CHECK(Render("{node.nic_gbps} via {workload.mode}", f) == "24.0 Gbit/s via download");
  CHECK(Render("{node.vcpus * 4} threads", f) == "384 threads");
  CHECK(Render("{{literal}} and }}", f) == "{literal} and }");
  CHECK(Render("no placeholders", f) == "no placeholders");
}

TEST_CASE("raw style prints plain numbers for env values", "[rules][template]") {
  FactSet f = Facts({"dataset.median_file_bytes=4MiB", "dataset.files=2000000", "node.vcpus=96"});
  CHECK(Render("{node.vcpus * 4}", f, Style::kRaw) == "384");
  CHECK(Render("{dataset.files}", f, Style::kRaw) == "2000000");
  CHECK(Render("{dataset.median_file_bytes}", f, Style::kRaw) == "4194304");
}

TEST_CASE("missing facts render as ? and are reported", "[rules][template]") {
  std::vector<std::string> missing;
  CHECK(Render("x {node.gpus} y", FactSet{}, Style::kHuman, &missing) == "x ? y");
  CHECK(missing == std::vector<std::string>{"node.gpus"});
}

TEST_CASE("bad templates are compile errors at the brace", "[rules][template]") {
  CHECK(Render("a {node.vcpus", FactSet{}) == "error R201 col 3");
  CHECK(Render("a } b", FactSet{}) == "error R201 col 3");
  CHECK(Render("a { } b", FactSet{}) == "error R201 col 3");
  CHECK(Render("a {node.vcpu} b", FactSet{}) == "error R103 col 4");
  CHECK(Render("a {node.vcpus >} b", FactSet{}) == "error R101 col 16");
}
