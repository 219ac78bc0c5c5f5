// The labelled corpus (tests/data/joblogs/corpus.json) through app::RunPostmortem: the verdict a
// storage engineer gives, its confidence, the GPU time lost (computed by the generator from the
// samples it wrote), the straggler of a multi-node job, and the result object's headline.
#include "app/postmortem_workflow.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
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

nlohmann::json Labels() {
  std::ifstream in(kJobCorpus + "/corpus.json");
  REQUIRE(in.good());
  return nlohmann::json::parse(in);
}

// The label's command-line arguments as the request the flags bind (paths are relative to the
// corpus folder).
PostmortemRequest RequestWith(const std::string& job, const nlohmann::json& args) {
  PostmortemRequest r;
  r.job_dir = kJobCorpus + "/" + job;
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
      r.profile = kJobCorpus + "/" + value;
    else if (flag == "--with")
      r.with.push_back(kJobCorpus + "/" + value);
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
    Outcome out = RunPostmortem(RequestWith(name, label["args"]));
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
  PostmortemRequest request = RequestWith("job-demo", nlohmann::json::array());
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

  PostmortemRequest with = RequestWith("job-demo", nlohmann::json::array());
  with.with = {WriteTempFile("not-a-result.json", "{\"hello\": 1}")};
  Outcome bad_with = RunPostmortem(with);
  CHECK(bad_with.status == ExitStatus::kInputError);
  CHECK(HasDiagnostic(bad_with.diagnostics, codes::kUnreadableResult, "--with"));

  PostmortemRequest sku = RequestWith("job-demo", nlohmann::json::array());
  sku.cluster.sku = "Standard_ND96asr_v5";
  Outcome bad_sku = RunPostmortem(sku);
  CHECK(bad_sku.status == ExitStatus::kUsage);
  CHECK(HasDiagnostic(bad_sku.diagnostics, codes::kBadFlag, "did you mean"));
}

namespace {

// The finding of `rule_id` and its evidence fact `key`; nullptr when either is absent.
const Fact* EvidenceOf(const Report& r, const std::string& rule_id, const std::string& key) {
  for (const auto& f : r.findings)
    if (f.rule_id == rule_id)
      for (const auto& e : f.evidence)
        if (e.key == key) return &e;
  return nullptr;
}

// A copy of a corpus job without its job.yml, in a scratch folder.
std::string CopyJobWithoutDefinition(const std::string& job, const std::string& as) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(WriteTempFile(as + "-marker", "")).parent_path() / as;
  fs::remove_all(dir);
  fs::copy(kJobCorpus + "/" + job, dir, fs::copy_options::recursive);
  fs::remove(dir / "job.yml");
  return dir.string();
}

}  // namespace

TEST_CASE("postmortem: a setting in the job's job.yml drives a finding, naming job.yml:line",
          "[app][postmortem][job_spec]") {
  const nlohmann::json args = {"--sku", "Standard_ND96asr_v4", "--nodes", "1", "--region",
                               "eastus"};
  PostmortemRequest request = RequestWith("client-bound-few-threads", args);
  Outcome out = RunPostmortem(request);
  REQUIRE(out.has_report);
  // The rslex log says nothing of the thread count: job.yml line 11 does.
  const Fact* threads =
      EvidenceOf(out.report, "downloader-threads-low", "runtime.setting.RSLEX_DOWNLOADER_THREADS");
  REQUIRE(threads);
  CHECK(threads->text() == "8");
  CHECK(threads->provenance.file == request.job_dir + "/job.yml");
  CHECK(threads->provenance.line == 11);
  CHECK(DiagnosisOf(out.report).cause == "client threads/CPU");
  // The definition is not a log: no "not read" warning for it.
  CHECK_FALSE(HasDiagnostic(out.diagnostics, codes::kNotRead, "job.yml"));

  // Without the definition the setting is unknown and the finding is gone.
  PostmortemRequest bare = request;
  bare.job_dir = CopyJobWithoutDefinition("client-bound-few-threads", "threads-no-definition");
  Outcome without = RunPostmortem(bare);
  REQUIRE(without.has_report);
  CHECK_FALSE(EvidenceOf(without.report, "downloader-threads-low",
                         "runtime.setting.RSLEX_DOWNLOADER_THREADS"));

  // The same setting from `az ml job show -o json` (job.json): named by file:line and key.
  {
    std::ofstream(bare.job_dir + "/job.json")
        << "{\n  \"type\": \"command\",\n  \"environment_variables\": {\n"
           "    \"RSLEX_DOWNLOADER_THREADS\": \"8\"\n  },\n  \"status\": \"Completed\"\n}\n";
  }
  Outcome json = RunPostmortem(bare);
  REQUIRE(json.has_report);
  const Fact* from_json =
      EvidenceOf(json.report, "downloader-threads-low", "runtime.setting.RSLEX_DOWNLOADER_THREADS");
  REQUIRE(from_json);
  CHECK(from_json->provenance.line == 4);
  CHECK(from_json->provenance.source.find("environment_variables.RSLEX_DOWNLOADER_THREADS") !=
        std::string::npos);

  // A definition that is a link out of the folder is not read (it could point at any file).
  {
    const std::string outside = WriteTempFile("outside-job.json",
                                              "{\"environment_variables\": "
                                              "{\"RSLEX_DOWNLOADER_THREADS\": \"8\"}}");
    std::filesystem::remove(bare.job_dir + "/job.json");
    std::filesystem::create_symlink(outside, bare.job_dir + "/job.json");
    Outcome linked = RunPostmortem(bare);
    REQUIRE(linked.has_report);
    CHECK_FALSE(linked.report.evidence.facts.Find("runtime.setting.RSLEX_DOWNLOADER_THREADS"));
    CHECK(HasDiagnostic(linked.diagnostics, codes::kNotRead, "a link out of the folder"));
    std::filesystem::remove(bare.job_dir + "/job.json");
  }

  // A broken definition is a warning naming file:line; the logs are still read.
  { std::ofstream(bare.job_dir + "/job.json") << "{\n  \"environment_variables\": {\n}}}\n"; }
  Outcome broken = RunPostmortem(bare);
  REQUIRE(broken.has_report);
  CHECK(broken.status == ExitStatus::kOk);
  REQUIRE(HasDiagnostic(broken.diagnostics, codes::kJobFile, "settings are taken from its logs"));
  for (const auto& d : broken.diagnostics.kept())
    if (d.code == std::string(codes::kJobFile)) {
      CHECK(d.severity == DiagnosticSeverity::kWarning);
      CHECK(d.location.line == 3);
    }
}

TEST_CASE("postmortem: the runtime's retry-count line wins over the definition, no other line",
          "[app][postmortem][job_spec]") {
  // retry-count-high-no-503 logs AZUREML_DATASET_HTTP_RETRY_COUNT=20; a definition saying 5
  // is noted, the log's value kept.
  PostmortemRequest r = RequestWith("retry-count-high-no-503", {"--sku", "Standard_ND96asr_v4"});
  r.job_dir = CopyJobWithoutDefinition("retry-count-high-no-503", "retry-log-wins");
  {
    std::ofstream(r.job_dir + "/job.yml")
        << "type: command\ncommand: python train.py\nenvironment_variables:\n"
           "  AZUREML_DATASET_HTTP_RETRY_COUNT: \"5\"\n  RSLEX_DOWNLOADER_THREADS: \"16\"\n";
  }
  // A setting line of no documented form: the definition's value wins over it.
  {
    std::ofstream(r.job_dir + "/system_logs/data_capability/rslex.log.2025-03-30-20", std::ios::app)
        << "2025-03-30T20:59:00.000000Z  INFO rslex::settings: RSLEX_DOWNLOADER_THREADS set in "
           "environment, using: 32 value=32\n";
  }
  Outcome out = RunPostmortem(r);
  REQUIRE(out.has_report);
  const Fact* retries =
      out.report.evidence.facts.Find("runtime.setting.AZUREML_DATASET_HTTP_RETRY_COUNT");
  REQUIRE(retries);
  CHECK(retries->text() == "20");
  CHECK(retries->provenance.file.find("rslex.log") != std::string::npos);
  CHECK(HasDiagnostic(out.diagnostics, codes::kJobFile, "the log's value is used"));
  const Fact* threads = out.report.evidence.facts.Find("runtime.setting.RSLEX_DOWNLOADER_THREADS");
  REQUIRE(threads);
  CHECK(threads->text() == "16");
  CHECK(threads->provenance.line == 5);
}

TEST_CASE("a named input that cannot be read is an input error, exit 3", "[app][postmortem]") {
  const std::string demo = kJobCorpus + "/job-demo";
  struct Case {
    std::vector<std::string> metrics, gpu;
    std::string flag;
  };
  const std::string missing = demo + "/no-such-file.json";
  for (const Case& c : {Case{{missing}, {}, "--metrics"}, Case{{}, {demo + "/gpu.csv"}, "--gpu"}}) {
    PostmortemRequest r;
    r.job_dir = demo;
    r.fail_on = "never";
    r.metrics = c.metrics;
    r.gpu = c.gpu;
    Outcome o = RunPostmortem(r);
    INFO(c.flag);
    CHECK(o.status == ExitStatus::kInputError);
    REQUIRE_FALSE(o.diagnostics.kept().empty());
    CHECK(o.diagnostics.kept().back().message.rfind(c.flag + " ", 0) == 0);
    CHECK(o.diagnostics.kept().back().severity == DiagnosticSeverity::kError);
  }
  // A named file that is there but in no format the analyzers know is not read either: exit 3.
  PostmortemRequest r;
  r.job_dir = demo;
  r.fail_on = "never";
  r.gpu = {WriteTempFile("not-gpu-samples.csv", "nothing, a reader knows\n\x01\x02\n")};
  Outcome o = RunPostmortem(r);
  CHECK(o.status == ExitStatus::kInputError);
}
