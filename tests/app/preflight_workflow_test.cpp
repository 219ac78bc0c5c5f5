// app::RunPreflight with the scripted HTTP client: the flags it needs, and the verdict when the
// storage refuses every request.
#include "app/preflight_workflow.h"

#include <catch2/catch.hpp>

#include "core/diagnostic_codes.h"
#include "scripted_session.h"

using namespace feedcheck;
using feedcheck::testing::ScriptedHttpClient;

TEST_CASE("preflight workflow: --sku and --nodes are required without a profile",
          "[app][preflight]") {
  app::PreflightRequest r;
  r.session.target = "https://acct.blob.core.windows.net/data/";
  app::Outcome out = app::RunPreflight(r, {});
  CHECK(out.status == ExitStatus::kUsage);
  CHECK(out.diagnostics.kept().front().message.find("--sku is required") != std::string::npos);
  r.cluster.sku = "Standard_ND96asr_v4";
  out = app::RunPreflight(r, {});
  CHECK(out.status == ExitStatus::kUsage);
  CHECK(out.diagnostics.kept().front().message.find("--nodes is required") != std::string::npos);
  r.cluster.nodes = 4;
  r.probes = {"list", "warp"};
  out = app::RunPreflight(r, {});
  CHECK(out.status == ExitStatus::kUsage);
  CHECK(out.diagnostics.kept().front().message.find("unknown probe 'warp'") != std::string::npos);
}

TEST_CASE(
    "preflight workflow: storage that refuses everything measures nothing, and says what "
    "to do",
    "[app][preflight]") {
  auto client = std::make_shared<ScriptedHttpClient>([](const HttpRequest&) {
    return feedcheck::testing::AzureError(403, "NoAuthenticationInformation");
  });
  app::PreflightRequest r;
  r.session =
      feedcheck::testing::ScriptedSession("https://acct.blob.core.windows.net/data/", client);
  r.session.duration = "10s";
  r.cluster.sku = "Standard_ND96asr_v4";
  r.cluster.nodes = 4;
  r.probes = {"list", "latency", "throughput"};
  app::Outcome out = app::RunPreflight(r, {});
  REQUIRE(out.has_report);
  CHECK(out.report.verdict == "nothing measured");
  CHECK(out.report.verdict_level == VerdictLevel::kBad);
  CHECK(out.status == ExitStatus::kProbeFailed);
  bool advised = false;
  for (const auto& d : out.diagnostics.kept())
    advised = advised || (d.code == codes::kAccessDenied &&
                          d.message.find("Storage Blob Data Reader") != std::string::npos);
  CHECK(advised);
  bool in_report = false;
  for (const auto& w : out.report.context.warnings)
    in_report = in_report || w.find("AZURE_STORAGE_SAS_TOKEN") != std::string::npos;
  CHECK(in_report);
  bool verdict_result = false;
  for (const auto& v : out.report.result)
    verdict_result = verdict_result ||
                     (v.key == "verdict" && std::get<std::string>(v.value) == "nothing measured");
  CHECK(verdict_result);
}
