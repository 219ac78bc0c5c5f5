// The one decision behind advise and lint: the mode judged, the settings kept for it, and the
// findings of a job that reads no data.
#include "rules/access_decision.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "test_facts.h"

using namespace feedcheck;
using namespace feedcheck::rules;
using feedcheck::rules::test::Facts;

namespace {

const RuleSet& BuiltinRules() {
  static const RuleSet rules = [] {
    RuleSet s;
    DiagnosticList d;
    s.LoadDirectory(std::string(FEEDCHECK_SOURCE_DIR) + "/rules/builtin", &d);
    return s;
  }();
  return rules;
}

bool HasEnv(const Advice& a, const std::string& name) {
  return std::any_of(a.env.begin(), a.env.end(),
                     [&](const EnvSetting& e) { return e.name == name; });
}

bool HasFinding(const EvaluationResult& r, const std::string& id) {
  return std::any_of(r.findings.begin(), r.findings.end(),
                     [&](const Finding& f) { return f.rule_id == id; });
}

}  // namespace

TEST_CASE("a setting acts on its own mode only", "[rules][decision]") {
  const auto mode = GENERATE(as<std::string>{}, "download", "eval_download", "ro_mount",
                             "eval_mount", "rw_mount", "direct", "");
  const bool download = mode == "download" || mode == "eval_download";
  const bool mount = mode == "ro_mount" || mode == "eval_mount" || mode == "rw_mount";
  CHECK(SettingOutsideMode("DATASET_MOUNT_READ_THREADS", mode).empty() ==
        (!download && mode != "direct"));
  CHECK(SettingOutsideMode("RSLEX_DOWNLOADER_THREADS", mode).empty() ==
        (!mount && mode != "direct"));
  CHECK(SettingOutsideMode("AZUREML_DATASET_HTTP_RETRY_COUNT", mode).empty() == (mode != "direct"));
  // Not a data runtime setting: no mode concerns it.
  CHECK(SettingOutsideMode("NCCL_DEBUG", mode).empty());
}

TEST_CASE("advise judges the mode it recommends, lint the mode declared", "[rules][decision]") {
  // 3 GB read 5 times from a mount, on a node whose disk holds it: download is recommended.
  const FactSet facts = Facts(
      {"workload.mode=ro_mount", "workload.epochs=5", "dataset.bytes=3GB", "dataset.files=3",
       "dataset.median_file_bytes=1GB", "node.local_disk_bytes=6000GiB", "node.vcpus=96",
       "node.nic_gbps=24Gbit/s", "node.count=2", "runtime.setting.RSLEX_DOWNLOADER_THREADS=8"});
  const AccessDecision advise = DecideAccess(BuiltinRules(), facts, JudgedMode::kRecommended);
  CHECK(advise.declared_mode == "ro_mount");
  CHECK(advise.mode == "download");
  CHECK(advise.advice.mode == "download");
  CHECK(!advise.mode_rule.empty());
  // The reason stays; nothing judges the mount the report advises against.
  CHECK(HasFinding(advise.result, advise.mode_rule));
  CHECK_FALSE(HasFinding(advise.result, "mount-large-files-block-cache"));
  // Under download the download threads matter and are advised.
  CHECK(HasEnv(advise.advice, "RSLEX_DOWNLOADER_THREADS"));
  for (const auto& e : advise.advice.env) CHECK(SettingOutsideMode(e.name, "download").empty());

  const AccessDecision lint = DecideAccess(BuiltinRules(), facts, JudgedMode::kDeclared);
  CHECK(lint.mode == "ro_mount");
  CHECK(lint.advice.mode == "download");  // the switch is still recommended (L001)
  // The job mounts: a download setting does nothing there and is not advised.
  CHECK_FALSE(HasEnv(lint.advice, "RSLEX_DOWNLOADER_THREADS"));
  CHECK(std::any_of(
      lint.dropped_settings.begin(), lint.dropped_settings.end(),
      [](const DroppedSetting& d) { return d.setting.name == "RSLEX_DOWNLOADER_THREADS"; }));
  // 1 GB files on a mount get block-based caching, not the whole-file cache.
  CHECK(HasFinding(lint.result, "mount-large-files-block-cache"));
}

TEST_CASE("a switch to ro_mount comes with the mount settings for the files", "[rules][decision]") {
  // 1 GB files that do not fit the disk: download is refused, the mount gets block caching.
  const FactSet facts = Facts({"workload.mode=download", "workload.epochs=3", "dataset.bytes=8TB",
                               "dataset.files=8000", "dataset.median_file_bytes=1GB",
                               "workload.access=sequential", "node.local_disk_bytes=6000GiB",
                               "node.vcpus=96", "node.nic_gbps=24Gbit/s", "node.count=1"});
  const AccessDecision d = DecideAccess(BuiltinRules(), facts, JudgedMode::kRecommended);
  CHECK(d.mode == "ro_mount");
  CHECK(HasEnv(d.advice, "DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED"));
  CHECK_FALSE(HasEnv(d.advice, "RSLEX_DOWNLOADER_THREADS"));
}

TEST_CASE("a job that reads no data gets no storage finding", "[rules][decision]") {
  // 12 nodes of 24 Gbit/s on one 200 Gbit/s account: an egress finding, if the job read data.
  const FactSet facts = Facts({"node.count=12", "node.nic_gbps=24Gbit/s",
                               "account.egress_gbps=200Gbit/s", "node.vcpus=96"});
  const AccessDecision reads = DecideAccess(BuiltinRules(), facts, JudgedMode::kDeclared);
  REQUIRE(HasFinding(reads.result, "egress-nodes-beyond-account"));
  WorkloadScope none;
  none.reads_data = false;
  const AccessDecision idle = DecideAccess(BuiltinRules(), facts, JudgedMode::kDeclared, none);
  CHECK_FALSE(HasFinding(idle.result, "egress-nodes-beyond-account"));
  for (const auto& f : idle.result.findings) CHECK_FALSE(IsStorageReadFinding(f));
  CHECK_FALSE(idle.dropped_findings.empty());
}

TEST_CASE("data outside Azure ML's datastores gets none of the data runtime's settings",
          "[rules][decision]") {
  CHECK_FALSE(OutsideDatastores("netapp_files").empty());
  for (const char* kind : {"standard_gpv2", "premium_block_blob", "azure_files_standard", ""})
    CHECK(OutsideDatastores(kind).empty());
  const FactSet facts = Facts(
      {"workload.mode=ro_mount", "workload.epochs=1", "dataset.bytes=2TB", "dataset.files=2000",
       "dataset.median_file_bytes=1GB", "workload.access=sequential", "workload.readers=8",
       "account.kind=netapp_files", "node.local_disk_bytes=6000GiB", "node.vcpus=96"});
  const AccessDecision d = DecideAccess(BuiltinRules(), facts, JudgedMode::kRecommended);
  CHECK_FALSE(d.out_of_scope.empty());
  CHECK(d.advice.env.empty());
  CHECK(d.advice.config.empty());
  CHECK(d.advice.mode.empty());
}

TEST_CASE("inputs from outside Azure ML's datastores are told apart", "[rules][decision]") {
  for (const char* inside :
       {"azureml://datastores/d/paths/x", "azureml:cifar-10:1", "./data", "../../data/",
        "wasbs://c@acct.blob.core.windows.net/x", "abfss://fs@acct.dfs.core.windows.net/x",
        "https://acct.blob.core.windows.net/c/x.csv", ""})
    CHECK(SourceOutsideDatastores(inside).empty());
  for (const char* outside :
       {"http://vision.example.org/images.tar", "https://example.com/x.csv", "s3://bucket/x",
        "gs://bucket/x", "https://blob.core.windows.net.example.com/x"})
    CHECK_FALSE(SourceOutsideDatastores(outside).empty());
}
