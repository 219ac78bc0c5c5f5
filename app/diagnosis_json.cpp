#include "app/diagnosis_json.h"

#include <algorithm>
#include <string>

#include "core/whole_number.h"
#include "diagnosis/cluster_nodes.h"
#include "reports/json_fields.h"

namespace feedcheck {

using nlohmann::json;

using namespace json_fields;  // lenient readers of a saved file

json DiagnosisToJson(const DiagnosisSummary& d) {
  const GpuTimeLost& g = d.gpu;
  json gpu = {{"known", g.known},
              {"gpus", g.gpus},
              {"lost_gpu_s", g.lost_gpu_s},
              {"sampled_gpu_s", g.sampled_gpu_s},
              {"idle_s", g.idle_s},
              {"span_s", g.span_s},
              {"idle_fraction", g.idle_fraction},
              {"headline", g.headline}};
  json estimate = {{"available", d.estimate.available},
                   {"text", d.estimate.text},
                   {"assumptions", d.estimate.assumptions},
                   {"idle_fraction_before", d.estimate.idle_fraction_before},
                   {"idle_fraction_after", d.estimate.idle_fraction_after}};
  auto shares = [](const std::vector<LedgerShare>& v) {
    json o = json::object();
    for (const auto& s : v) o[s.state] = s.gpu_s;
    return o;
  };
  json nodes = json::array();
  for (const auto& n : d.nodes)
    nodes.push_back({{"node", n.node},
                     {"download_s", n.download_s},
                     {"gpu_util_mean", n.gpu_util_mean},
                     {"gpu_lost_gpu_s", n.gpu_lost_gpu_s},
                     {"states", shares(n.states)},
                     {"throttled", n.throttled},
                     {"reads", n.reads},
                     {"straggler", n.straggler}});
  json out = {{"cause", d.cause},
              {"confidence", d.confidence},
              {"agreeing_sources", d.agreeing_sources},
              {"settle_with", d.settle_with},
              {"fix", d.fix},
              {"attributed_gpu_s", d.attributed_gpu_s},
              {"gpu", gpu},
              {"estimate", estimate},
              {"nodes", nodes},
              {"straggler", d.straggler},
              {"not_storage_nodes", d.not_storage_nodes}};
  if (d.ledger.present) {
    json nodes_ledger = json::object();
    for (const auto& [node, v] : d.ledger.nodes) nodes_ledger[node] = shares(v);
    out["ledger"] = {{"cause_state", d.ledger.cause_state},
                     {"lost_gpu_s", d.ledger.lost_gpu_s},
                     {"states", shares(d.ledger.states)},
                     {"nodes", nodes_ledger}};
  }
  return out;
}

namespace {

// A saved ledger's states, largest first as the diagnosis wrote them.
std::vector<LedgerShare> SharesFromJson(const json& o) {
  std::vector<LedgerShare> out;
  if (!o.is_object()) return out;
  for (const auto& [key, value] : JsonField(&o, nullptr, "").Members())
    if (auto gpu_s = value.Number()) out.push_back({key, *gpu_s});
  std::stable_sort(out.begin(), out.end(),
                   [](const LedgerShare& a, const LedgerShare& b) { return a.gpu_s > b.gpu_s; });
  return out;
}

}  // namespace

DiagnosisSummary DiagnosisFromJson(const json& j) {
  DiagnosisSummary d;
  if (!j.is_object()) return d;
  d.present = true;
  d.cause = Text(j, "cause");
  d.confidence = Text(j, "confidence");
  d.agreeing_sources = Texts(j, "agreeing_sources");
  d.settle_with = Text(j, "settle_with");
  d.fix = Text(j, "fix");
  d.attributed_gpu_s = Num(j, "attributed_gpu_s", -1);
  const json& g = Object(j, "gpu");
  d.gpu.known = Flag(g, "known");
  d.gpu.gpus = Int(g, "gpus", 0);
  d.gpu.lost_gpu_s = Num(g, "lost_gpu_s", 0);
  d.gpu.sampled_gpu_s = Num(g, "sampled_gpu_s", 0);
  d.gpu.idle_s = Num(g, "idle_s", 0);
  d.gpu.span_s = Num(g, "span_s", 0);
  d.gpu.idle_fraction = Num(g, "idle_fraction", 0);
  // An older report's phase split (have_phases, download_gpu_s, mount_gpu_s, ...) is not read:
  // where the time went is the ledger's alone.
  d.gpu.headline = Text(g, "headline");
  const json& e = Object(j, "estimate");
  d.estimate.available = Flag(e, "available");
  d.estimate.text = Text(e, "text");
  d.estimate.assumptions = Texts(e, "assumptions");
  d.estimate.idle_fraction_before = Num(e, "idle_fraction_before", 0);
  d.estimate.idle_fraction_after = Num(e, "idle_fraction_after", 0);
  bool saved_states = false;
  if (auto it = j.find("nodes"); it != j.end() && it->is_array()) {
    for (const auto& n : *it) {
      if (!n.is_object()) continue;
      saved_states |= n.contains("states");
      NodeRow row;
      row.node = Text(n, "node");
      row.download_s = Num(n, "download_s", -1);
      row.gpu_util_mean = Num(n, "gpu_util_mean", -1);
      row.gpu_lost_gpu_s = Num(n, "gpu_lost_gpu_s", -1);
      row.throttled = Num(n, "throttled", -1);
      row.reads = Num(n, "reads", -1);
      row.states = SharesFromJson(Object(n, "states"));
      row.straggler = Flag(n, "straggler");
      d.nodes.push_back(std::move(row));
    }
  }
  d.straggler = Text(j, "straggler");
  d.not_storage_nodes = Texts(j, "not_storage_nodes");
  if (auto it = j.find("ledger"); it != j.end() && it->is_object()) {
    d.ledger.present = true;
    d.ledger.cause_state = Text(*it, "cause_state");
    d.ledger.lost_gpu_s = Num(*it, "lost_gpu_s", 0);
    d.ledger.states = SharesFromJson(Object(*it, "states"));
    const json& nodes = Object(*it, "nodes");
    for (const auto& [node, v] : nodes.items()) d.ledger.nodes.push_back({node, SharesFromJson(v)});
    // Saved before the rows carried their states: the same per-node ledger, put on them.
    if (!saved_states) diagnosis::PutLedgerOnNodes(d.ledger, &d.nodes);
  }
  return d;
}

}  // namespace feedcheck
