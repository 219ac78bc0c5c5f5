// `feedcheck report saved.json` must print what the run that saved it printed: every command
// that saves a result, rendered as the CLI renders it (app::ReportToShow + RenderReport) straight
// from the run, and again from its saved JSON read back by app::RunReport, in every format.
#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "app/advise_workflow.h"
#include "app/analyze_workflow.h"
#include "app/compare_workflow.h"
#include "app/egress_workflow.h"
#include "app/lint_workflow.h"
#include "app/plan_workflow.h"
#include "app/postmortem_workflow.h"
#include "app/preflight_workflow.h"
#include "app/report_output.h"
#include "app/report_workflow.h"
#include "app_test_support.h"
#include "scripted_session.h"

using namespace feedcheck;
using namespace feedcheck::app;
using namespace feedcheck::app::testing;
using feedcheck::testing::ScriptedHttpClient;

namespace {

std::string Show(const Outcome& outcome, const std::string& format, const std::string& command,
                 bool verbose = false) {
  std::optional<Report> report = ReportToShow(outcome, format, command);
  REQUIRE(report);
  RenderOptions options;
  options.verbose = verbose;
  std::optional<std::string> text = RenderReport(*report, format, options);
  REQUIRE(text);
  return *text;
}

// What the run's stderr carried: its own diagnostics, as `feedcheck report` must print them again.
std::string Stderr(const DiagnosticList& diagnostics) {
  std::string out;
  for (const auto& d : diagnostics.kept()) out += FormatDiagnostic(d) + "\n";
  return out;
}

// The run's output in every format against `report`'s output of its saved JSON.
void CheckRoundTrip(const Outcome& run, const std::string& command) {
  REQUIRE(run.has_report);
  const std::string saved = WriteTempFile(command + "-saved.json", Show(run, "json", command));
  Outcome again = RunReport({saved});
  REQUIRE(again.has_report);
  CHECK(again.status == ExitStatus::kOk);
  CHECK(Stderr(again.diagnostics) == Stderr(run.diagnostics));
  for (const char* format : {"term", "md", "html", "json"}) {
    for (bool verbose : {false, true}) {
      INFO(command << " --format " << format << (verbose ? " -v" : ""));
      const std::string original = Show(run, format, command, verbose);
      const std::string rendered = Show(again, format, "report", verbose);
      if (original != rendered) {
        // The first line that differs, for the log.
        size_t at = 0;
        while (at < original.size() && at < rendered.size() && original[at] == rendered[at]) ++at;
        size_t line_start = original.rfind('\n', at == 0 ? 0 : at - 1);
        line_start = line_start == std::string::npos ? 0 : line_start + 1;
        INFO("run:    " << original.substr(line_start, original.find('\n', at) - line_start));
        INFO("report: " << rendered.substr(line_start, rendered.find('\n', at) - line_start));
        CHECK(original == rendered);
      }
    }
  }
}

// One 64 MiB blob; ranged GETs answer after 12 ms to the first byte, 20 ms in all.
std::shared_ptr<ScriptedHttpClient> OneBigBlob() {
  return std::make_shared<ScriptedHttpClient>([](const HttpRequest& r) {
    HttpResponse resp;
    if (r.url.find("comp=list") != std::string::npos) {
      resp.status = 200;
      resp.body =
          "<EnumerationResults><Blobs><Blob><Name>big</Name><Properties><Content-Length>"
          "67108864</Content-Length></Properties></Blob></Blobs><NextMarker/></EnumerationResults>";
      return resp;
    }
    resp.status = r.method == "HEAD" ? 200 : 206;
    resp.headers["content-length"] = "67108864";
    resp.body_bytes = r.method == "HEAD" ? 0 : feedcheck::testing::RangeBytes(r);
    resp.timing.ttfb_s = 0.012;
    resp.timing.total_s = 0.020;
    return resp;
  });
}

}  // namespace

TEST_CASE("report of a saved result prints what the run printed: sizing and checks",
          "[app][report][roundtrip]") {
  EgressRequest egress;
  egress.sku = "Standard_ND96asr_v4";
  egress.nodes = "12";
  egress.region = "eastus";
  CheckRoundTrip(RunEgress(egress), "egress");

  PlanRequest plan;
  plan.bytes = "1TB";
  plan.mean_file_bytes = "500KB";
  plan.sku = "Standard_ND96asr_v4";
  plan.nodes = "12";
  plan.region = "eastus";
  CheckRoundTrip(RunPlan(plan), "plan");

  AdviseRequest advise;
  advise.profile = SourcePath("examples/small-files-multi-epoch.yaml");
  CheckRoundTrip(RunAdvise(advise), "advise");

  LintRequest lint;
  lint.job = SourcePath("examples/jobs/train-images-12-nodes.yml");
  lint.profile = SourcePath("examples/small-files-multi-epoch.yaml");
  lint.region = "eastus";
  CheckRoundTrip(RunLint(lint).outcome, "lint");
}

TEST_CASE("report of a saved result prints what the run printed: job logs",
          "[app][report][roundtrip]") {
  AnalyzeRequest analyze;
  analyze.paths = {SourcePath("tests/data/joblogs/job-demo")};
  CheckRoundTrip(RunAnalyze(analyze), "analyze");

  PostmortemRequest postmortem;
  postmortem.job_dir = SourcePath("tests/data/joblogs/job-demo");
  postmortem.cluster.region = "eastus";
  postmortem.cluster.nodes = 2;
  postmortem.fail_on = "never";
  Outcome pm = RunPostmortem(postmortem);
  CheckRoundTrip(pm, "postmortem");

  // compare, of two saved post-mortems.
  const std::string a = WriteTempFile("pm-a.json", Show(pm, "json", "postmortem"));
  postmortem.cluster.nodes = 4;
  const std::string b =
      WriteTempFile("pm-b.json", Show(RunPostmortem(postmortem), "json", "postmortem"));
  CompareRequest compare;
  compare.a = a;
  compare.b = b;
  CheckRoundTrip(RunCompare(compare), "compare");
}

TEST_CASE("report of a saved result prints what the run printed: a pre-flight",
          "[app][report][roundtrip]") {
  PreflightRequest r;
  r.session =
      feedcheck::testing::ScriptedSession("https://acct.blob.core.windows.net/data/", OneBigBlob());
  r.session.duration = "3s";
  r.cluster.sku = "Standard_ND96asr_v4";
  r.cluster.nodes = 12;
  r.cluster.region = "eastus";
  r.probes = {"list", "latency", "throughput"};
  r.fail_on = "never";
  Outcome ok = RunPreflight(r, {});
  CheckRoundTrip(ok, "preflight");
  // The Result block reads as the run showed it: labels and units, the verdict first.
  const std::string term = Show(ok, "term", "preflight");
  CHECK(term.find("account_egress_gbps") == std::string::npos);

  // A pre-flight refused by the storage: its diagnostics went to stderr, and go there again.
  auto refuse = std::make_shared<ScriptedHttpClient>([](const HttpRequest&) {
    return feedcheck::testing::AzureError(403, "NoAuthenticationInformation");
  });
  r.session =
      feedcheck::testing::ScriptedSession("https://acct.blob.core.windows.net/data/", refuse);
  r.session.duration = "3s";
  Outcome refused = RunPreflight(r, {});
  REQUIRE_FALSE(refused.diagnostics.kept().empty());
  CheckRoundTrip(refused, "preflight");
}
