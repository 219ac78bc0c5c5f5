// One decision behind advise and lint: for every profile of the repository (tests/data/profiles,
// tests/data/edges, examples) and generated variants, the job file advise would write (the mode
// it decides, the settings it pastes) lints clean, and advise pastes no setting lint flags.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "app/advise_workflow.h"
#include "app/lint_workflow.h"
#include "app_test_support.h"
#include "core/ascii_text.h"
#include "core/diagnostic_codes.h"

using namespace feedcheck;
using namespace feedcheck::app;
using namespace feedcheck::app::testing;

namespace {

std::vector<std::string> RepoProfiles() {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const char* dir : {"tests/data/profiles", "tests/data/edges", "examples"})
    for (const auto& e : fs::directory_iterator(SourcePath(dir)))
      if (e.path().extension() == ".yaml") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// Variants over what the decision turns on: size against the disk, file size, passes, mode,
// access pattern, node count and VM size. A stride through the grid keeps the run short.
std::vector<std::string> GeneratedProfiles() {
  const char* bytes[] = {"800MB", "3GB", "200GB", "5TB"};
  const double total[] = {8e8, 3e9, 2e11, 5e12};
  const char* median[] = {"500KB", "64MB", "1GB"};
  const double size[] = {5e5, 64e6, 1e9};
  const char* epochs[] = {"1", "5"};
  const char* modes[] = {"ro_mount", "download", "direct", "eval_mount"};
  const char* access[] = {"sequential", "random", "shuffled_files", "columnar"};
  const char* nodes[] = {"1", "4", "12"};
  const char* skus[] = {"Standard_ND96asr_v4", "Standard_NC24ads_A100_v4", "Standard_E8s_v3"};
  const char* readers[] = {"1", "8"};
  std::vector<std::string> out;
  size_t i = 0;
  for (int b = 0; b < 4; ++b)
    for (int f = 0; f < 3; ++f)
      for (int e = 0; e < 2; ++e)
        for (int m = 0; m < 4; ++m)
          for (int a = 0; a < 4; ++a) {
            ++i;
            if (size[f] > total[b] || i % 2) continue;  // a file larger than the data; stride
            const int n = static_cast<int>((i / 2) % 3), s = static_cast<int>((i / 6) % 3),
                      r = static_cast<int>((i / 4) % 2);
            const long long files = static_cast<long long>(total[b] / size[f]);
            out.push_back(WriteTempFile(
                "variant-" + std::to_string(i) + ".yaml",
                std::string("nodes: ") + nodes[n] + "\nsku: " + skus[s] +
                    "\nregion: eastus\ndataset:\n  bytes: " + bytes[b] +
                    "\n  files: " + std::to_string(files) + "\n  median_file: " + median[f] +
                    "\nworkload:\n  mode: " + modes[m] + "\n  access: " + access[a] +
                    "\n  epochs: " + epochs[e] + "\n  readers: " + readers[r] + "\n"));
          }
  return out;
}

std::string FactText(const Report& r, const std::string& key) {
  const Fact* f = r.evidence.facts.Find(key);
  return f ? (f->is_number() ? std::to_string(static_cast<long long>(f->number())) : f->text())
           : std::string();
}

// The job advise would write: its mode (or the declared one), its settings, the size and count.
std::string WriteAdvisedJob(const Report& advice, const std::string& name) {
  std::string mode = ResultText(advice, "input_mode").value_or(FactText(advice, "workload.mode"));
  std::string job =
      "type: command\ncommand: python train.py --data ${{inputs.data}}\ninputs:\n  data:\n"
      "    type: " +
      std::string(StartsWith(mode, "eval_") ? "mltable" : "uri_folder") +
      "\n    path: azureml://datastores/workspaceblobstore/paths/data/\n";
  if (!mode.empty()) job += "    mode: " + mode + "\n";
  job += "environment: azureml:env@latest\ncompute: azureml:cluster\n";
  // The settings the job already has (a profile's facts) stay; the advised ones are added.
  std::map<std::string, std::string> env;
  for (const auto& [key, fact] : advice.evidence.facts)
    if (StartsWith(key, "runtime.setting."))
      env[key.substr(16)] = fact.is_number() ? FactText(advice, key) : fact.text();
  for (const auto& e : advice.env) env[e.name] = e.value;
  if (!env.empty()) {
    job += "environment_variables:\n";
    for (const auto& [setting, value] : env) job += "  " + setting + ": \"" + value + "\"\n";
  }
  const std::string sku = FactText(advice, "node.sku"), nodes = FactText(advice, "node.count");
  if (!sku.empty() || !nodes.empty()) {
    job += "resources:\n";
    if (!nodes.empty()) job += "  instance_count: " + nodes + "\n";
    if (!sku.empty()) job += "  instance_type: " + sku + "\n";
  }
  return WriteTempFile(name, job);
}

}  // namespace

TEST_CASE("the job advise writes lints clean, and advise pastes nothing lint flags",
          "[app][advise][lint][property]") {
  std::vector<std::string> profiles = RepoProfiles();
  const size_t repo_profiles = profiles.size();
  for (auto& p : GeneratedProfiles()) profiles.push_back(std::move(p));
  REQUIRE(repo_profiles >= 50);
  REQUIRE(profiles.size() > repo_profiles + 100);
  // Codes about the mode and the settings: what advise decides. Egress and the other findings
  // (L004, L005) are about the cluster and the data, which no job file changes.
  const std::set<std::string> decided = {codes::kLintWrongMode,        codes::kLintMissingEnv,
                                         codes::kLintContradictingEnv, codes::kLintNoEffect,
                                         codes::kLintUnknownSetting,   codes::kLintBadValue};
  size_t advised = 0, with_settings = 0, switched = 0;
  for (const auto& profile : profiles) {
    INFO("profile " << profile);
    AdviseRequest request;
    request.profile = profile;
    request.fail_on = "never";
    const Outcome advice = RunAdvise(request);
    // A profile advise refuses (an error in it, an unknown size) writes no job.
    if (!advice.has_report) continue;
    ++advised;
    if (!advice.report.env.empty()) ++with_settings;
    if (ResultText(advice.report, "input_mode")) ++switched;
    const std::string job =
        WriteAdvisedJob(advice.report, "advised-" + std::to_string(advised) + ".yml");
    LintRequest lint_request;
    lint_request.job = job;
    lint_request.profile = profile;
    lint_request.fail_on = "never";
    const LintOutcome lint = RunLint(lint_request);
    REQUIRE(lint.outcome.has_report);
    for (const auto& p : lint.problems) {
      INFO(p.code << " " << p.message << " -> " << p.change);
      CHECK(decided.count(p.code) == 0);
      for (const auto& e : advice.report.env) CHECK(p.setting != e.name);
    }
  }
  // The corpus exercises what the property is about: settings pasted, modes switched.
  CHECK(advised > 100);
  CHECK(with_settings > 10);
  CHECK(switched > 10);
}
