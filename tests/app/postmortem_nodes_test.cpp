// The node table of a multi-node post-mortem is the idle ledger's: each node's GPU time lost is
// the sum of its ledger states (IdleLedger::by_node), what held it is its largest states, the
// rows sum to the job's GPU time lost and come the nodes that lost the most first, and the
// JSON's `diagnosis.nodes[]` says the same numbers (no phase split beside them). Over every
// multi-node job of the labelled corpus, and over drawn per-node ledgers put on rows, written
// as JSON and read back.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "app/diagnosis_json.h"
#include "app/postmortem_report.h"
#include "app/postmortem_workflow.h"
#include "app_test_support.h"
#include "diagnosis/cluster_nodes.h"
#include "diagnosis/idle_state.h"
#include "diagnosis/ledger_text.h"

using namespace feedcheck;
using namespace feedcheck::app;
using namespace feedcheck::app::testing;

namespace {

double Sum(const std::vector<LedgerShare>& shares) {
  double sum = 0;
  for (const auto& s : shares) sum += s.gpu_s;
  return sum;
}

// The ledger's entry for a row: by its name, or a log's node paired with a GPU file ("id ~
// file") by the file's.
const std::vector<LedgerShare>* LedgerNode(const DiagnosisSummary& d, const std::string& node) {
  const size_t tilde = node.find(" ~ ");
  const std::string file = tilde == std::string::npos ? node : node.substr(tilde + 3);
  for (const auto& [name, shares] : d.ledger.nodes)
    if (name == node || name == file) return &shares;
  return nullptr;
}

// The table's figures against the rows it was laid out from: the GPU time lost cell holds the
// row's number, the held-by cell starts with the node's largest ledger state.
void CheckTable(const Report& r, const DiagnosisSummary& d) {
  const ReportTable* t = nullptr;
  for (const auto& s : r.sections)
    for (const auto& table : s.tables)
      if (table.title.rfind("Nodes (", 0) == 0) t = &table;
  REQUIRE(t != nullptr);
  REQUIRE(t->rows.size() == d.nodes.size());
  bool any_states = false;
  for (size_t i = 0; i < d.nodes.size(); ++i) {
    const NodeRow& n = d.nodes[i];
    INFO("node " << n.node);
    any_states |= !n.states.empty() && n.gpu_lost_gpu_s > 0;
    if (const TableCell* lost = Cell(*t, i, "gpu_lost_gpu_s"); lost && n.gpu_lost_gpu_s >= 0) {
      REQUIRE(lost->value.has_value());
      CHECK(*lost->value == Approx(n.gpu_lost_gpu_s));
    }
    const TableCell* held = Cell(*t, i, "held_by");
    if (n.states.empty() || !(n.gpu_lost_gpu_s > 0)) {
      if (held) CHECK(held->text == "-");
      continue;
    }
    REQUIRE(held != nullptr);
    auto top = diagnosis::IdleStateFromKey(n.states.front().state);
    REQUIRE(top.has_value());
    CHECK(held->text.rfind(std::string(diagnosis::StateLabel(*top)) + " ", 0) == 0);
  }
  // A column nothing is known of for any node is left out, not filled with dashes.
  if (!any_states) CHECK(Cell(*t, 0, "held_by") == nullptr);
  for (const auto& c : t->columns) CHECK(c.key.find("lost_") != 0);
}

}  // namespace

TEST_CASE("every multi-node corpus job's node table is its ledger's, summing to the GPU time lost",
          "[app][postmortem][nodes][ledger][corpus]") {
  std::ifstream in(kJobCorpus + "/corpus.json");
  REQUIRE(in.good());
  const nlohmann::json labels = nlohmann::json::parse(in);
  int multi_node = 0, per_node_ledger = 0;
  for (const auto& label : labels["jobs"]) {
    const std::string name = label["name"];
    INFO("job " << name);
    Outcome out = RunPostmortem(CorpusRequest(name, label["args"].get<std::vector<std::string>>()));
    REQUIRE(out.has_report);
    const DiagnosisSummary d = DiagnosisOf(out.report);
    if (d.nodes.size() < 2) continue;
    ++multi_node;
    const nlohmann::json j = DiagnosisToJson(d);
    if (d.ledger.present) {
      // The rows sum to the job's GPU time lost, the ledger's.
      double rows = 0;
      for (const auto& n : d.nodes) rows += std::max(0.0, n.gpu_lost_gpu_s);
      CHECK(rows == Approx(d.ledger.lost_gpu_s).margin(1e-3));
      CHECK(d.ledger.lost_gpu_s == Approx(d.gpu.lost_gpu_s).margin(1e-3));
    }
    if (!d.ledger.nodes.empty()) {
      ++per_node_ledger;
      CHECK(d.ledger.nodes.size() == d.nodes.size());
      for (size_t i = 0; i < d.nodes.size(); ++i) {
        const NodeRow& n = d.nodes[i];
        INFO("node " << n.node);
        const std::vector<LedgerShare>* ledger = LedgerNode(d, n.node);
        REQUIRE(ledger != nullptr);
        REQUIRE(n.states.size() == ledger->size());
        for (size_t k = 0; k < n.states.size(); ++k) {
          CHECK(n.states[k].state == (*ledger)[k].state);
          CHECK(n.states[k].gpu_s == (*ledger)[k].gpu_s);
          if (k > 0) CHECK(n.states[k].gpu_s <= n.states[k - 1].gpu_s);
        }
        CHECK(n.gpu_lost_gpu_s == Approx(Sum(*ledger)).margin(1e-6));
        // The JSON row says the same numbers.
        const nlohmann::json& row = j["nodes"][i];
        CHECK(row["gpu_lost_gpu_s"].get<double>() == Approx(Sum(*ledger)).margin(1e-6));
        for (const auto& s : *ledger) CHECK(row["states"][s.state].get<double>() == s.gpu_s);
      }
    }
    // The nodes that cost the most first: a terminal cut to its first rows shows them.
    for (size_t i = 1; i < d.nodes.size(); ++i)
      if (d.nodes[i].gpu_lost_gpu_s >= 0)
        CHECK(d.nodes[i].gpu_lost_gpu_s <= d.nodes[i - 1].gpu_lost_gpu_s);
    // No phase split beside the ledger's states.
    for (const auto& row : j["nodes"])
      for (const auto& [key, value] : row.items()) {
        CHECK(key.rfind("lost_", 0) != 0);
        CHECK(key != "phases_known");
      }
    CheckTable(out.report, d);
  }
  // Every multi-node job with GPU samples has its ledger by node: its GPU samples in the node
  // folders or in one folder (then the job's buckets shared by the nodes idle in them).
  CHECK(multi_node >= 10);
  CHECK(per_node_ledger == multi_node);
}

TEST_CASE("drawn per-node ledgers: the rows carry them, the JSON keeps them, the table shows them",
          "[app][postmortem][nodes][ledger]") {
  const unsigned seed = GENERATE(range(1u, 25u));
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> node_count(2, 9), state_count(0, 5);
  std::uniform_int_distribution<int> state_pick(0, diagnosis::kIdleStateCount - 1);
  std::uniform_real_distribution<double> gpu_s(1, 20000);
  std::bernoulli_distribution dotted(0.3);
  const int nodes = node_count(rng);
  DiagnosisSummary d;
  d.present = true;
  d.ledger.present = true;
  std::vector<NodeRow> rows;
  double total = 0;
  for (int n = 0; n < nodes; ++n) {
    // A node named by its address: the ledger may key it as the row writes it.
    NodeRow row;
    row.node = dotted(rng) ? fmt::format("10.0.0.{}", n) : fmt::format("node-{}", n);
    row.gpu_lost_gpu_s = -1;  // nothing known until the ledger says it
    rows.push_back(row);
    std::set<int> picked;
    const int k = state_count(rng);
    for (int i = 0; i < k; ++i) picked.insert(state_pick(rng));
    std::vector<LedgerShare> shares;
    for (int s : picked)
      shares.push_back(
          {std::string(diagnosis::IdleStateKey(static_cast<diagnosis::IdleState>(s))), gpu_s(rng)});
    std::stable_sort(shares.begin(), shares.end(),
                     [](const LedgerShare& a, const LedgerShare& b) { return a.gpu_s > b.gpu_s; });
    total += Sum(shares);
    d.ledger.nodes.push_back({row.node, shares});
  }
  d.ledger.lost_gpu_s = total;
  d.gpu.known = true;
  d.gpu.lost_gpu_s = total;
  diagnosis::PutLedgerOnNodes(d.ledger, &rows);
  d.nodes = rows;
  double sum = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    INFO("node " << rows[i].node);
    const auto& want = d.ledger.nodes[i].second;
    CHECK(rows[i].gpu_lost_gpu_s == Approx(Sum(want)).margin(1e-9));
    REQUIRE(rows[i].states.size() == want.size());
    sum += rows[i].gpu_lost_gpu_s;
  }
  CHECK(sum == Approx(total));
  // Written and read back: the same rows.
  const DiagnosisSummary back = DiagnosisFromJson(DiagnosisToJson(d));
  REQUIRE(back.nodes.size() == d.nodes.size());
  for (size_t i = 0; i < d.nodes.size(); ++i) {
    CHECK(back.nodes[i].gpu_lost_gpu_s == Approx(d.nodes[i].gpu_lost_gpu_s));
    REQUIRE(back.nodes[i].states.size() == d.nodes[i].states.size());
    for (size_t k = 0; k < d.nodes[i].states.size(); ++k)
      CHECK(back.nodes[i].states[k].gpu_s == d.nodes[i].states[k].gpu_s);
  }
  Report r;
  PutDiagnosis(d, &r);
  CheckTable(r, d);
}
