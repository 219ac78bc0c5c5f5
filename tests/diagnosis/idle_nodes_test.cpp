// The nodes of a multi-node job whose GPUs idled while their own data runtime read nothing:
// which are set apart (the idle ledger's not_storage_node), and which are not.
#include "diagnosis/idle_nodes.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace feedcheck;
using namespace feedcheck::diagnosis;

namespace {

// `n` busy nodes that read: 92% busy, 300 GPU-s lost each.
std::vector<NodeRow> BusyNodes(int n) {
  std::vector<NodeRow> rows(n);
  for (int i = 0; i < n; ++i) {
    rows[i].node = "node-" + std::to_string(i);
    rows[i].reads = 40;
    rows[i].gpu_util_mean = 92;
    rows[i].gpu_lost_gpu_s = 300;
  }
  return rows;
}

}  // namespace

TEST_CASE("a node idle while it read nothing is set apart, named, with what it lost",
          "[diagnosis][idle_nodes]") {
  const int nodes = GENERATE(2, 3, 4, 8);
  const int idle = GENERATE_COPY(range(0, nodes));
  const double busy_percent = GENERATE(20.0, 50.0);
  std::vector<NodeRow> rows = BusyNodes(nodes);
  rows[idle].reads = 0;
  rows[idle].gpu_util_mean = 1.5;
  rows[idle].gpu_lost_gpu_s = 24000;
  INFO(nodes << " nodes, node-" << idle << " idle");
  auto set_apart = NodesIdleReadingNothing(rows, busy_percent);
  REQUIRE(set_apart.size() == 1);
  CHECK(set_apart[0].node == rows[idle].node);
  CHECK(set_apart[0].lost_gpu_s == 24000);
  CHECK(set_apart[0].util_mean_percent == 1.5);
}

TEST_CASE("a node is set apart only when it read nothing, idled and lost time, beside others",
          "[diagnosis][idle_nodes]") {
  std::vector<NodeRow> rows = BusyNodes(4);
  rows[3].reads = 0;
  rows[3].gpu_util_mean = 1.5;
  rows[3].gpu_lost_gpu_s = 24000;
  REQUIRE(NodesIdleReadingNothing(rows, 20).size() == 1);
  SECTION("a node that read but idled is storage's to explain") {
    rows[3].reads = 5;
    CHECK(NodesIdleReadingNothing(rows, 20).empty());
  }
  SECTION("a node that read nothing but kept its GPUs busy lost nothing to it") {
    rows[3].gpu_util_mean = 20;  // at the threshold: busy
    CHECK(NodesIdleReadingNothing(rows, 20).empty());
    rows[3].gpu_util_mean = 19.9;
    CHECK(NodesIdleReadingNothing(rows, 20).size() == 1);
  }
  SECTION("no GPU samples for the node, or none of its time lost") {
    rows[3].gpu_util_mean = -1;
    CHECK(NodesIdleReadingNothing(rows, 20).empty());
    rows[3].gpu_util_mean = 1.5;
    rows[3].gpu_lost_gpu_s = 0;
    CHECK(NodesIdleReadingNothing(rows, 20).empty());
  }
  SECTION("every node reading nothing is a job that never started, not one node") {
    for (auto& r : rows) r.reads = 0, r.gpu_util_mean = 1;
    CHECK(NodesIdleReadingNothing(rows, 20).empty());
    // ...every one of them met the job's failure in its own log, or none did: still none.
    CHECK(NodesIdleReadingNothing(rows, 20, {"node-0", "node-1", "node-2", "node-3"}).empty());
    CHECK(NodesIdleReadingNothing(rows, 20, {"node-7"}).empty());
  }
  SECTION("where the others met the job's failure, a node that met none never asked storage") {
    // The input's name never resolved: every node that tried failed. node-2 never tried (a
    // dead node): its GPUs idled for a reason of its own.
    for (auto& r : rows) r.reads = 0, r.gpu_util_mean = 1;
    auto apart = NodesIdleReadingNothing(rows, 20, {"node-0", "node-1", "node-3"});
    REQUIRE(apart.size() == 1);
    CHECK(apart[0].node == "node-2");
  }
  SECTION("a single node has no others to be told apart from") {
    CHECK(NodesIdleReadingNothing({rows[3]}, 20).empty());
  }
  SECTION("two idle nodes of four are both named") {
    rows[1].reads = 0;
    rows[1].gpu_util_mean = 3;
    rows[1].gpu_lost_gpu_s = 9000;
    auto both = NodesIdleReadingNothing(rows, 20);
    REQUIRE(both.size() == 2);
    CHECK(both[0].node == "node-1");
    CHECK(both[1].node == "node-3");
  }
}

TEST_CASE("a node met a failure where its own log shows a refused access or a failed activity",
          "[diagnosis][idle_nodes]") {
  std::vector<TimelineInterval> timeline(5);
  timeline[0] = {.lane = "data-runtime", .label = "mount", .status = "Failure", .node = "node-0"};
  timeline[1] = {.lane = "access", .label = "403 refused", .node = "node-1"};
  timeline[2] = {.lane = "data-runtime", .label = "mount", .status = "Success", .node = "node-2"};
  timeline[3] = {.lane = "storage", .label = "503 server busy", .node = "node-3"};
  timeline[4] = {.lane = "data-runtime", .label = "mount", .status = "Failure"};  // the job's
  CHECK(NodesMeetingFailure(timeline) == std::set<std::string>{"node-0", "node-1"});
}
