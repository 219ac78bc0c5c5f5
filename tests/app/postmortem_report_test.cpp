// The post-mortem's conclusion as the generic parts of a report (app/postmortem_report.h): the
// headline, the ranked findings and the "GPU time and cause" section, laid out by reporters that
// know no post-mortem; its `diagnosis` JSON written under its key and read back into the same
// lines, so `feedcheck report` renders a saved post-mortem as the run did.
#include "app/postmortem_report.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/diagnosis_json.h"
#include "reports/report_json.h"
#include "reports/reporter.h"

using namespace feedcheck;
using namespace feedcheck::app;

namespace {

DiagnosisSummary TwoNodes() {
  DiagnosisSummary d;
  d.present = true;
  d.cause = "account egress";
  d.confidence = "confirmed";
  d.fix = "Spread the job over two storage accounts.";
  d.attributed_gpu_s = 7200;
  d.gpu.known = true;
  d.gpu.lost_gpu_s = 7200;
  d.gpu.headline = "GPUs idle 15 min of 61 min (25%), 120 GPU-minutes";
  d.estimate.available = true;
  d.estimate.text = "2 accounts: GPUs idle 10% instead of 25%";
  d.estimate.assumptions = {"the reads split evenly"};
  d.nodes.resize(2);
  d.nodes[0].node = "node-0";
  d.nodes[0].gpu_lost_gpu_s = 0;
  d.nodes[1].node = "node-1";
  d.nodes[1].gpu_lost_gpu_s = 7200;
  d.nodes[1].straggler = true;
  d.nodes[1].states = {{"account_egress", 6480}, {"own_code", 720}};
  d.ledger.present = true;
  d.ledger.cause_state = "account_egress";
  d.ledger.lost_gpu_s = 7200;
  d.ledger.states = d.nodes[1].states;
  d.ledger.nodes = {{"node-0", {}}, {"node-1", d.nodes[1].states}};
  d.straggler = "node-1: download 2.5 times the others'";
  return d;
}

std::string Render(const Report& r, const char* format) {
  std::ostringstream out;
  MakeReporter(format)->Render(r, out);
  return out.str();
}

}  // namespace

TEST_CASE("a diagnosis becomes a headline, ranked findings and one keyed section",
          "[app][postmortem][report]") {
  Report r;
  r.title = "Post-mortem";
  r.verdict = "account egress, confirmed";
  Finding cause;
  cause.rule_id = "throttled-egress";
  cause.title = "Egress throttled";
  cause.severity = Severity::kWarning;
  cause.message = TwoNodes().fix;
  Finding info;
  info.rule_id = "info-first";
  info.title = "Listed first by the diagnosis";
  info.severity = Severity::kInfo;
  r.findings = {info, cause};
  PutDiagnosis(TwoNodes(), &r);
  CHECK(r.headline == TwoNodes().gpu.headline);
  CHECK(r.findings_ranked);
  REQUIRE(r.sections.size() == 1);
  const ReportSection& s = r.sections[0];
  CHECK(s.key == "diagnosis");
  REQUIRE(s.tables.size() == 1);
  // One unit for the nodes' GPU time: "0 GPU-minutes" beside "120 GPU-minutes". Columns
  // nothing is known of (download, GPU busy, throttled) are left out, not filled with dashes.
  const auto& cols = s.tables[0].columns;
  auto lost_col = std::find_if(cols.begin(), cols.end(),
                               [](const TableColumn& c) { return c.key == "gpu_lost_gpu_s"; });
  REQUIRE(lost_col != cols.end());
  const size_t lost = static_cast<size_t>(lost_col - cols.begin());
  for (const auto& c : cols) CHECK(c.key != "download_s");
  REQUIRE(s.tables[0].rows[0].size() == cols.size());
  CHECK(s.tables[0].rows[0][lost].text == "0 GPU-minutes");
  CHECK(s.tables[0].rows[1][lost].text == "120 GPU-minutes");
  CHECK(s.tables[0].rows[1][0].text == "node-1 (straggler)");
  // What held each node: its ledger's largest states and their shares of its GPU time lost.
  auto held_col = std::find_if(cols.begin(), cols.end(),
                               [](const TableColumn& c) { return c.key == "held_by"; });
  REQUIRE(held_col != cols.end());
  const size_t held = static_cast<size_t>(held_col - cols.begin());
  CHECK(s.tables[0].rows[0][held].text == "-");
  CHECK(s.tables[0].rows[1][held].text == "account egress 90%, own code 10%");
  // Put twice, still one section.
  PutDiagnosis(TwoNodes(), &r);
  CHECK(r.sections.size() == 1);

  const std::string term = Render(r, "term");
  CHECK(term.find("GPU time and cause") != std::string::npos);
  CHECK(term.find("Fix: Spread the job over two storage accounts.") != std::string::npos);
  CHECK(term.find("Straggler: node-1") != std::string::npos);
  // The fix said above is not repeated under its finding.
  CHECK(term.find("Spread the job") == term.rfind("Spread the job"));
  // Ranked as given, not by severity: the info finding first.
  CHECK(term.find("[info-first]") < term.find("[throttled-egress]"));
  const std::string md = Render(r, "md");
  CHECK(md.find("## GPU time and cause") != std::string::npos);
  CHECK(md.find("- assumes the reads split evenly") != std::string::npos);
  CHECK(md.find("| node-1 (straggler) |") != std::string::npos);
  const std::string html = Render(r, "html");
  CHECK(html.find("<h2>GPU time and cause</h2>") != std::string::npos);
  CHECK(html.find("<b>" + TwoNodes().gpu.headline + "</b>") != std::string::npos);
}

TEST_CASE("the diagnosis JSON is written under its key and read back into the same section",
          "[app][postmortem][report][json]") {
  Report r;
  r.title = "Post-mortem";
  PutDiagnosis(TwoNodes(), &r);
  nlohmann::json j = ReportToJson(r);
  REQUIRE(j.contains("diagnosis"));
  CHECK(j["diagnosis"] == DiagnosisToJson(TwoNodes()));
  CHECK(j["diagnosis"]["nodes"][1]["states"]["account_egress"] == 6480);
  CHECK(j["diagnosis"]["nodes"][1]["gpu_lost_gpu_s"] == 7200);
  // The phase split is gone: the node's GPU time lost is said by ledger state only.
  CHECK_FALSE(j["diagnosis"]["nodes"][1].contains("lost_throttled_gpu_s"));
  // Nor does the job's GPU time carry one: where it went is the ledger's alone.
  for (const char* gone : {"have_phases", "download_gpu_s", "mount_gpu_s", "cached_gpu_s",
                           "after_data_gpu_s", "unknown_gpu_s"})
    CHECK_FALSE(j["diagnosis"]["gpu"].contains(gone));
  Report back;
  DiagnosticList diags;
  REQUIRE(ReportFromJson(j, "saved.json", &back, &diags));
  // Read back: the section's JSON only, until the app lays it out again.
  REQUIRE(back.sections.size() == 1);
  CHECK(back.sections[0].lines.empty());
  REQUIRE(DiagnosisOf(back).nodes[1].states.size() == 2);
  CHECK(DiagnosisOf(back).nodes[1].states[0].state == "account_egress");
  CHECK(DiagnosisOf(back).nodes[1].states[0].gpu_s == 6480);
  RestoreSections(&back);
  CHECK(back.headline == r.headline);
  CHECK(back.findings_ranked);
  CHECK(Render(back, "term") == Render(r, "term"));
  CHECK(ReportToJson(back)["diagnosis"] == j["diagnosis"]);
  // Saved before the rows carried their states: the per-node ledger puts them back.
  nlohmann::json older = j["diagnosis"];
  for (auto& n : older["nodes"]) n.erase("states");
  const DiagnosisSummary old_read = DiagnosisFromJson(older);
  REQUIRE(old_read.nodes.size() == 2);
  CHECK(old_read.nodes[0].states.empty());
  REQUIRE(old_read.nodes[1].states.size() == 2);
  CHECK(old_read.nodes[1].states[1].state == "own_code");
  CHECK(old_read.nodes[1].gpu_lost_gpu_s == 7200);
  // Saved with the job's phase split (any value, any type): read, ignored, the rest the same.
  const double phase_gpu_s = GENERATE(0.0, 7200.0, -1.0);
  nlohmann::json phased = j["diagnosis"];
  phased["gpu"]["have_phases"] = phase_gpu_s > 0;
  for (const char* key :
       {"download_gpu_s", "mount_gpu_s", "cached_gpu_s", "after_data_gpu_s", "unknown_gpu_s"})
    phased["gpu"][key] = phase_gpu_s;
  phased["gpu"]["mount_gpu_s"] = "not a number";
  const DiagnosisSummary phased_read = DiagnosisFromJson(phased);
  CHECK(DiagnosisToJson(phased_read) == j["diagnosis"]);
  // A report without a diagnosis has none.
  CHECK_FALSE(DiagnosisOf(Report()).present);
}
