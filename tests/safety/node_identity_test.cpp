// One identity per node for logs and GPU files, label safety: a job's node folders renamed to
// what clusters name nodes (IP addresses, dotted host names, names with dashes and underscores),
// with the GPU files in each node's folder or side by side in a shared gpu/ folder (named after
// the node, with or without an extension): the post-mortem sees exactly the nodes the folders
// name, each once, with all of its GPUs. Through the real binary on a copy of the bundled
// four-node job.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "tests/support/subprocess.h"

using namespace feedcheck::testing;
namespace fs = std::filesystem;

namespace {

const std::string kJob =
    std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/joblogs/multinode-straggler";

struct Scratch {
  std::string path;
  Scratch() {
    char t[] = "/tmp/feedcheck-nodes-XXXXXX";
    REQUIRE(mkdtemp(t) != nullptr);
    path = t;
  }
  ~Scratch() { fs::remove_all(path); }
};

// The nodes the post-mortem's per-node table names.
std::set<std::string> DiagnosisNodes(const nlohmann::json& j) {
  std::set<std::string> out;
  for (const auto& n : j["diagnosis"]["nodes"])
    if (n.contains("node") && n["node"].is_string()) out.insert(n["node"].get<std::string>());
  return out;
}

size_t NodeGpuFacts(const std::string& json_text) {
  size_t n = 0, at = 0;
  while ((at = json_text.find("\"gpu.node_gpus.", at)) != std::string::npos) {
    ++n;
    ++at;
  }
  return n;
}

}  // namespace

TEST_CASE("renaming node folders changes nothing but the names", "[safety][nodes]") {
  const std::vector<std::string> names =
      GENERATE(std::vector<std::string>{"10.0.0.5", "10.0.0.6", "10.0.0.7", "10.0.0.8"},
               std::vector<std::string>{"node-3.cluster.local", "node-4.cluster.local",
                                        "node-5.cluster.local", "node-6.cluster.local"},
               std::vector<std::string>{"gpu-a.x", "rank_1.y.z", "vm-2", "tvmps_ab.cd_d"});
  // Where the GPU files are: in each node's folder, or in a shared gpu/ folder named after the
  // node (nvidia-smi-<node>, no extension; <node>.csv).
  const std::string layout =
      GENERATE(std::string("in-node"), std::string("shared-noext"), std::string("shared-csv"));
  Scratch dir;
  const std::string job = dir.path + "/job";
  fs::copy(kJob, job, fs::copy_options::recursive);
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string node = job + "/" + names[i];
    fs::rename(job + "/node-" + std::to_string(i), node);
    if (layout == "in-node") continue;
    fs::create_directories(job + "/gpu");
    fs::rename(
        node + "/gpu/nvidia-smi.csv",
        job + "/gpu/" + (layout == "shared-csv" ? names[i] + ".csv" : "nvidia-smi-" + names[i]));
    fs::remove(node + "/gpu");
  }
  const auto r =
      RunCommand("timeout -s KILL 120 " +
                 ShellQuote(EnvOr("FEEDCHECK", std::string(FEEDCHECK_BINARY_DIR) + "/feedcheck")) +
                 " postmortem " + ShellQuote(job) + " -f json");
  INFO(layout << ": exit " << r.exit_code << "\nstderr: " << r.err.substr(0, 2000));
  const auto j = ParseJson(r.out);
  REQUIRE(j);
  const std::set<std::string> want(names.begin(), names.end());
  CHECK(DiagnosisNodes(*j) == want);
  CHECK(NodeGpuFacts(r.out) == names.size());
}
