// The pre-flight stage logic without a server: how the budget is shared, how stage outcomes
// combine, and that an unreachable target ends the run after the first stage.
#include "probes/preflight_probes.h"

#include <stdlib.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/fakes/scripted_http_client.h"

using namespace feedcheck;

namespace {

StageShare Sum(const std::vector<PreflightStage>& stages) {
  StageShare s{0, 0, 0};
  for (PreflightStage st : stages) {
    StageShare x = DefaultStageShare(st);
    s.time += x.time;
    s.requests += x.requests;
    s.bytes += x.bytes;
  }
  return s;
}

PreflightStageResult Stage(PreflightStage stage, ProbeStatus status) {
  PreflightStageResult r;
  r.stage = stage;
  r.result.status = status;
  return r;
}

}  // namespace

TEST_CASE("stage names round-trip and unknown names are refused", "[workflows][preflight]") {
  for (auto stage : {PreflightStage::kList, PreflightStage::kLatency, PreflightStage::kSmallFiles,
                     PreflightStage::kThroughput, PreflightStage::kNic, PreflightStage::kDisk}) {
    PreflightStage back;
    REQUIRE(ParsePreflightStage(PreflightStageName(stage), &back));
    CHECK(back == stage);
    CHECK(IsStorageStage(stage) ==
          (stage != PreflightStage::kNic && stage != PreflightStage::kDisk));
  }
  PreflightStage unused;
  CHECK_FALSE(ParsePreflightStage("cache", &unused));
  CHECK_FALSE(ParsePreflightStage("", &unused));
}

TEST_CASE("stage budgets, spent in full one after another, never exceed the whole",
          "[workflows][preflight]") {
  const std::vector<PreflightStage> all = {PreflightStage::kList, PreflightStage::kLatency,
                                           PreflightStage::kSmallFiles,
                                           PreflightStage::kThroughput};
  for (const ProbeBudget total :
       {ProbeBudget{120, 50000, 64ull << 30}, ProbeBudget{7, 13, 1000}, ProbeBudget{0.5, 1, 1}}) {
    ProbeBudget left = total;
    double time = 0;
    uint64_t requests = 0, bytes = 0;
    for (size_t i = 0; i < all.size(); ++i) {
      std::vector<PreflightStage> rest(all.begin() + static_cast<long>(i), all.end());
      ProbeBudget b = StageBudget(left, DefaultStageShare(all[i]), Sum(rest));
      CHECK(b.duration_s <= left.duration_s);
      CHECK(b.max_requests <= left.max_requests);
      CHECK(b.max_bytes <= left.max_bytes);
      // Worst case: each stage spends all it was given.
      time += b.duration_s;
      requests += b.max_requests;
      bytes += b.max_bytes;
      left.duration_s -= b.duration_s;
      left.max_requests -= b.max_requests;
      left.max_bytes -= b.max_bytes;
    }
    CHECK(time <= total.duration_s + 1e-9);
    CHECK(requests <= total.max_requests);
    CHECK(bytes <= total.max_bytes);
  }
  // The last stage gets everything that is left; a stage's share is relative to what remains.
  ProbeBudget left{10, 100, 1000};
  ProbeBudget last = StageBudget(left, DefaultStageShare(PreflightStage::kThroughput),
                                 Sum({PreflightStage::kThroughput}));
  CHECK(last.duration_s == Approx(10));
  CHECK(last.max_requests == 100);
  CHECK(last.max_bytes == 1000);
  ProbeBudget first =
      StageBudget(ProbeBudget{120, 50000, 64ull << 30}, DefaultStageShare(PreflightStage::kList),
                  Sum({PreflightStage::kList, PreflightStage::kThroughput}));
  CHECK(first.duration_s == Approx(120 * 0.10 / 0.60));
}

TEST_CASE("stage outcomes combine into the run's status", "[workflows][preflight]") {
  using S = ProbeStatus;
  using P = PreflightStage;
  CHECK(CombineStageStatus({}) == S::kFailed);
  CHECK(CombineStageStatus({Stage(P::kList, S::kOk), Stage(P::kLatency, S::kOk)}) == S::kOk);
  CHECK(CombineStageStatus({Stage(P::kList, S::kOk), Stage(P::kLatency, S::kFailed)}) ==
        S::kPartial);
  CHECK(CombineStageStatus({Stage(P::kList, S::kPartial)}) == S::kPartial);
  CHECK(CombineStageStatus({Stage(P::kList, S::kFailed), Stage(P::kLatency, S::kFailed)}) ==
        S::kFailed);
  CHECK(CombineStageStatus({Stage(P::kList, S::kUnreachable)}) == S::kUnreachable);
  // The node's own stages never make a pre-flight of a silent target a success...
  CHECK(CombineStageStatus({Stage(P::kList, S::kUnreachable), Stage(P::kNic, S::kOk),
                            Stage(P::kDisk, S::kOk)}) == S::kUnreachable);
  CHECK(CombineStageStatus({Stage(P::kList, S::kFailed), Stage(P::kNic, S::kOk)}) == S::kFailed);
  // ...but one that fails makes a measured run partial; alone they decide for themselves.
  CHECK(CombineStageStatus({Stage(P::kList, S::kOk), Stage(P::kDisk, S::kFailed)}) == S::kPartial);
  CHECK(CombineStageStatus({Stage(P::kNic, S::kOk), Stage(P::kDisk, S::kOk)}) == S::kOk);
  CHECK(CombineStageStatus({Stage(P::kDisk, S::kUnreachable)}) == S::kUnreachable);
}

TEST_CASE("node stages: the disk's test file is its own budget and is removed; nic is described",
          "[workflows][preflight]") {
  char dir_template[] = "/tmp/feedcheck-preflight-disk-XXXXXX";
  REQUIRE(mkdtemp(dir_template));
  const std::string dir = dir_template;
  PreflightProbeOptions options;
  options.stages = {PreflightStage::kList, PreflightStage::kDisk, PreflightStage::kNic};
  options.budget = {20, 100, 1};  // one storage byte: the disk's bytes must not come from here
  options.disk.path = dir;
  options.disk.file_bytes = 16ull << 20;
  options.disk.random_duration_s = 0.5;
  options.nic.interface = "lo";  // every Linux machine has it
  CleanupRegistry cleanup;
  options.cleanup = &cleanup;
  PreflightProbeResult r = RunLocalPreflightProbes(dir, options, {});
  for (const auto& s : r.stages)
    UNSCOPED_INFO(PreflightStageName(s.stage)
                  << ": " << ProbeStatusName(s.result.status) << " " << s.result.message);
  REQUIRE(r.stages.size() == 3);
  const PreflightStageResult& disk = r.stages[1];
  CHECK(disk.stage == PreflightStage::kDisk);
  CHECK(disk.budget.max_bytes == 2 * options.disk.file_bytes);
  CHECK(disk.budget.max_requests == 0);
  CHECK(disk.budget.duration_s > 0);
  CHECK(disk.budget.duration_s <= options.budget.duration_s);
  CHECK(disk.result.status == ProbeStatus::kOk);
  CHECK(r.evidence.facts.Number("probe.disk.write_gbps").value_or(0) > 0);
  CHECK(r.evidence.facts.Number("probe.disk.read_gbps").value_or(0) > 0);
  CHECK(r.evidence.facts.Has("probe.disk.free_bytes"));
  // Local bytes are not storage bytes: the run's spend is the listing's alone.
  CHECK(r.bytes_received == r.stages[0].result.bytes_received);
  CHECK(r.requests_sent == r.stages[0].result.requests_sent);
  CHECK(r.stages[2].result.status == ProbeStatus::kOk);
  CHECK(r.evidence.facts.Text("probe.nic.interface") == "lo");
  // Nothing is left behind in the cache directory.
  CHECK(std::filesystem::is_empty(dir));
  std::filesystem::remove(dir);
}

TEST_CASE("an unreachable target ends the pre-flight after its first stage",
          "[workflows][preflight]") {
  auto client = std::make_shared<feedcheck::testing::ScriptedHttpClient>([](const HttpRequest&) {
    HttpResponse r;
    r.status = 0;
    r.transport_error = "Couldn't connect to server";
    return r;
  });
  HttpProbeEnv env;
  std::string error;
  REQUIRE(ParseTarget("https://acct.blob.core.windows.net/data/train/", {}, &env.target, &error));
  env.make_client = [client]() -> std::unique_ptr<HttpClient> {
    struct Shared : HttpClient {
      std::shared_ptr<feedcheck::testing::ScriptedHttpClient> c;
      HttpResponse Perform(const HttpRequest& r) override { return c->Perform(r); }
    };
    auto s = std::make_unique<Shared>();
    s->c = client;
    return s;
  };
  PreflightProbeOptions options;
  options.budget = {5, 100, 1ull << 30};
  PreflightProbeResult r = RunPreflightProbes(env, options);
  CHECK(r.status == ProbeStatus::kUnreachable);
  for (const auto& s : r.stages)
    UNSCOPED_INFO(PreflightStageName(s.stage)
                  << ": " << ProbeStatusName(s.result.status) << " " << s.result.message);
  REQUIRE(r.stages.size() == 1);
  CHECK(r.stages[0].stage == PreflightStage::kList);
  CHECK(r.message.rfind("list: ", 0) == 0);
  CHECK(r.requests_sent <= options.budget.max_requests);
  CHECK(r.elapsed_s < options.budget.duration_s + 1);
}
