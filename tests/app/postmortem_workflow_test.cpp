// The labelled corpus (tests/data/joblogs/corpus.json) through app::RunPostmortem: the verdict a
// storage engineer gives, its confidence, the GPU time lost (computed by the generator from the
// samples it wrote), the straggler of a multi-node job, and the result object's headline.
#include "app/postmortem_workflow.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "app/postmortem_report.h"
#include "app_test_support.h"
#include "core/diagnostic_codes.h"
#include "diagnosis/claim_checks.h"

using namespace feedcheck;
using namespace feedcheck::app;
using namespace feedcheck::app::testing;

namespace {

const std::string kCorpus = SourcePath("tests/data/joblogs");

nlohmann::json Labels() {
  std::ifstream in(kCorpus + "/corpus.json");
  REQUIRE(in.good());
  return nlohmann::json::parse(in);
}

// The label's command-line arguments as the request the flags bind (paths are relative to the
// corpus folder).
PostmortemRequest Request(const std::string& job, const nlohmann::json& args) {
  PostmortemRequest r;
  r.job_dir = kCorpus + "/" + job;
  r.fail_on = "never";
  for (size_t i = 0; i + 1 < args.size(); i += 2) {
    const std::string flag = args[i];
    const std::string value = args[i + 1];
    if (flag == "--sku")
      r.cluster.sku = value;
    else if (flag == "--nodes")
      r.cluster.nodes = std::stoi(value);
    else if (flag == "--region")
      r.cluster.region = value;
    else if (flag == "--account-kind")
      r.cluster.account_kind = value;
    else if (flag == "--account-egress-gbps")
      r.cluster.account_egress = value;
    else if (flag == "--profile")
      r.profile = kCorpus + "/" + value;
    else if (flag == "--with")
      r.with.push_back(kCorpus + "/" + value);
    else if (flag == "--gpu-utc-offset")
      r.gpu_utc_offset = value;
    else
      FAIL("flag the test does not map: " << flag);
  }
  return r;
}

}  // namespace

TEST_CASE("every corpus job gets the verdict, confidence and GPU time of its label",
          "[app][postmortem][corpus]") {
  const nlohmann::json labels = Labels();
  REQUIRE(labels["jobs"].size() >= 12);
  int checked = 0;
  for (const auto& label : labels["jobs"]) {
    const std::string name = label["name"];
    INFO("job " << name << ": " << label["why"].get<std::string>());
    Outcome out = RunPostmortem(Request(name, label["args"]));
    for (const auto& d : out.diagnostics.kept()) UNSCOPED_INFO(FormatDiagnostic(d));
    REQUIRE(out.status == ExitStatus::kOk);
    REQUIRE(out.has_report);
    ++checked;
    const Report& r = out.report;
    const DiagnosisSummary d = DiagnosisOf(r);
    CHECK(d.cause == label["verdict"].get<std::string>());
    CHECK(d.confidence == label["confidence"].get<std::string>());
    CHECK(ResultText(r, "cause") == d.cause);
    CHECK(ResultText(r, "confidence") == d.confidence);
    if (label["gpu_lost_gpu_s"].is_null()) {
      CHECK_FALSE(d.gpu.known);
      CHECK_FALSE(ResultNumber(r, "gpu_minutes_lost"));
    } else {
      REQUIRE(d.gpu.known);
      const double want = label["gpu_lost_gpu_s"];
      // The generator counts samples x interval; within 2% (N/A samples, clock jitter).
      CHECK(std::abs(d.gpu.lost_gpu_s - want) <= 0.02 * std::max(want, 60.0));
      CHECK(ResultNumber(r, "gpu_minutes_lost").value_or(-1) == Approx(d.gpu.lost_gpu_s / 60));
      CHECK(ResultNumber(r, "gpu_idle_fraction").value_or(-1) == Approx(d.gpu.idle_fraction));
    }
    // "none found" only when the GPUs were seen busy; "inconclusive" names what would tell.
    if (d.cause == "none found") CHECK(d.gpu.known);
    if (d.confidence == "inconclusive") CHECK_FALSE(d.settle_with.empty());
    // A multi-node job is read as a cluster: one row per node.
    if (label.contains("nodes")) CHECK(d.nodes.size() == label["nodes"].get<size_t>());
    // A job that failed on access says what to change and what it recovers, or why no figure.
    if (d.cause == "storage access failed") {
      CHECK_FALSE(d.estimate.text.empty());
      if (d.estimate.available) CHECK(d.estimate.idle_fraction_after <= d.gpu.idle_fraction);
    }
    // Diagnostics the job's files must not raise (a rotated log is not an unfinished one).
    if (label.contains("absent_diagnostics"))
      for (const auto& code : label["absent_diagnostics"]) {
        bool raised = false;
        for (const auto& diag : out.report.evidence.diagnostics.kept())
          raised = raised || diag.code == code.get<std::string>();
        for (const auto& diag : out.diagnostics.kept())
          raised = raised || diag.code == code.get<std::string>();
        CHECK_FALSE(raised);
      }
    // The verdict's claims hold against the job's own timeline and facts, and every finding's
    // cost is its own share: they never sum past the GPU time lost.
    diagnosis::Postmortem concluded;
    concluded.evidence = r.evidence;
    concluded.findings = r.findings;
    concluded.env = r.env;
    concluded.diagnosis = d;
    for (const auto& claim : diagnosis::ContradictedClaims(concluded))
      FAIL_CHECK("contradiction: " << claim);
    // "Not storage" names the node that idled while reading nothing.
    if (d.cause == "not storage") CHECK_FALSE(d.not_storage_nodes.empty());
    if (label.contains("straggler")) {
      REQUIRE(d.nodes.size() >= 2);
      const std::string straggler = label["straggler"];
      CHECK(d.straggler.rfind(straggler, 0) == 0);
      // What the fix buys: the slow node catching up with the others.
      CHECK(d.estimate.text.rfind(straggler + " at the other nodes' pace", 0) == 0);
    }
  }
  CHECK(checked == static_cast<int>(labels["jobs"].size()));
}

TEST_CASE("postmortem: secondary findings do not fail the job under --fail-on",
          "[app][postmortem]") {
  PostmortemRequest request = Request("job-demo", nlohmann::json::array());
  request.fail_on = "info";
  Outcome out = RunPostmortem(request);
  REQUIRE(out.has_report);
  bool primary = false;
  for (const auto& f : out.report.findings) primary = primary || !f.secondary;
  CHECK(out.status == (primary ? ExitStatus::kFindings : ExitStatus::kOk));
  request.fail_on = "never";
  CHECK(RunPostmortem(request).status == ExitStatus::kOk);
}

TEST_CASE("postmortem: a folder with nothing readable, a bad --with, a bad flag",
          "[app][postmortem][errors]") {
  PostmortemRequest empty;
  empty.job_dir = WriteTempFile("empty-job-file.txt", "");
  Outcome nothing = RunPostmortem(empty);
  CHECK(nothing.status == ExitStatus::kInputError);
  CHECK_FALSE(nothing.has_report);
  CHECK(HasDiagnostic(nothing.diagnostics, codes::kNothingReadable, "nothing readable"));

  PostmortemRequest with = Request("job-demo", nlohmann::json::array());
  with.with = {WriteTempFile("not-a-result.json", "{\"hello\": 1}")};
  Outcome bad_with = RunPostmortem(with);
  CHECK(bad_with.status == ExitStatus::kInputError);
  CHECK(HasDiagnostic(bad_with.diagnostics, codes::kUnreadableResult, "--with"));

  PostmortemRequest sku = Request("job-demo", nlohmann::json::array());
  sku.cluster.sku = "Standard_ND96asr_v5";
  Outcome bad_sku = RunPostmortem(sku);
  CHECK(bad_sku.status == ExitStatus::kUsage);
  CHECK(HasDiagnostic(bad_sku.diagnostics, codes::kBadFlag, "did you mean"));
}
