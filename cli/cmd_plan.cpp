// `feedcheck plan`: from a dataset shape and a node/account, the requests, listing cost, load
// time, disk fit, epoch lower bound and small-file overhead of reading the data.
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/sizing_common.h"
#include "cli/text_table.h"
#include "core/evidence.h"
#include "core/evidence_json.h"
#include "core/exit_status.h"
#include "core/json_text.h"
#include "core/load_plan.h"
#include "core/units.h"

namespace feedcheck::cli {
namespace {

struct PlanOptions {
  std::string bytes, files, mean_file_bytes, median_file_bytes, dirs, files_per_dir;
  std::string block = "4MiB";
  std::string sku, nic_gbps, nodes = "1", region, account_egress_gbps, account_kind;
  std::string epochs = "1", request_latency_ms;
};

// "267 s" below two minutes' worth of precision loss, "5333 s (1 h 29 min)" above.
std::string Seconds(double s) {
  std::string plain = fmt::format("{} s", FormatNumber(s, 3));
  if (s >= 100) plain = fmt::format("{} s", Grouped(std::round(s)));
  if (s >= 120) plain += fmt::format(" ({})", FormatSeconds(s));
  return plain;
}

std::string Gbps(double v) { return fmt::format("{} Gbit/s", FormatNumber(v)); }

void Declare(FactSet* facts, const char* key, double value, Unit unit, bool given,
             const char* flag) {
  Provenance p;
  p.origin = given ? FactOrigin::kDeclared : FactOrigin::kDerived;
  p.source = given ? flag : "plan: completed from the other dataset flags";
  facts->Set(NumberFact(key, value, unit, p));
}

// Sizes as the user likely wrote them: 1 GiB stays "1.00 GiB", 500 KB stays "500 KB".
std::string Size(double bytes) {
  const bool binary = std::fmod(bytes, 1048576.0) == 0 && std::fmod(bytes, 1e6) != 0;
  return FormatBytes(bytes, !binary);
}

struct Parsed {
  PlanInput input;
  NodeChoice node;
  AccountChoice account;
};

// Parses every flag; the first bad one ends parsing with a message naming it.
bool ParseAll(const PlanOptions& o, const KnowledgeBase& kb, Parsed* out, FlagError* e) {
  PlanInput& in = out->input;
  auto bytes = [&](const std::string& flag, const std::string& text, std::optional<double>* dst) {
    if (text.empty()) return true;
    *dst = ParseBytesFlag(flag, text, e);
    return dst->has_value();
  };
  auto count = [&](const std::string& flag, const std::string& text, std::optional<double>* dst) {
    if (text.empty()) return true;
    *dst = ParseCountFlag(flag, text, e);
    return dst->has_value();
  };
  if (!bytes("--bytes", o.bytes, &in.dataset_bytes) || !count("--files", o.files, &in.files) ||
      !bytes("--mean-file-bytes", o.mean_file_bytes, &in.mean_file_bytes) ||
      !bytes("--median-file-bytes", o.median_file_bytes, &in.median_file_bytes) ||
      !count("--dirs", o.dirs, &in.dirs) ||
      !count("--files-per-dir", o.files_per_dir, &in.files_per_dir))
    return false;
  auto block = ParseBytesFlag("--block", o.block, e);
  if (!block) return false;
  in.block_bytes = *block;
  auto nodes = ParseCountFlag("--nodes", o.nodes, e);
  if (!nodes) return false;
  if (*nodes < 1 || *nodes > 1e6) {
    e->message = "--nodes: must be between 1 and 1,000,000";
    return false;
  }
  in.nodes = static_cast<int>(*nodes);
  auto epochs = ParsePositiveFlag("--epochs", o.epochs, e);
  if (!epochs) return false;
  in.epochs = *epochs;
  if (!o.request_latency_ms.empty()) {
    in.request_latency_ms = ParseMillisecondsFlag("--request-latency-ms", o.request_latency_ms, e);
    if (!in.request_latency_ms) return false;
  }
  if (!o.sku.empty() || !o.nic_gbps.empty()) {
    if (!ResolveNode(kb, o.sku, o.nic_gbps, &out->node, e)) return false;
    in.nic_gbps = out->node.nic_gbps;
    if (out->node.vm) in.local_disk_bytes = out->node.vm->local_disk_bytes;
  }
  if (!ResolveAccount(kb, o.region, o.account_kind, o.account_egress_gbps, &out->account, e))
    return false;
  if (out->account.target.egress_gbps > 0) in.account_egress_gbps = out->account.target.egress_gbps;
  if (out->account.target.requests_per_s > 0)
    in.account_requests_per_s = out->account.target.requests_per_s;
  return true;
}

nlohmann::json ResultJson(const PlanResult& r) {
  auto opt = [](const auto& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  return {{"dataset_bytes", r.dataset_bytes},
          {"files", r.files},
          {"mean_file_bytes", r.mean_file_bytes},
          {"dirs", opt(r.dirs)},
          {"files_per_dir", opt(r.files_per_dir)},
          {"block_bytes", r.block_bytes},
          {"nodes", r.nodes},
          {"epochs", r.epochs},
          {"requests_per_file", r.requests_per_file},
          {"get_requests", r.get_requests},
          {"list_requests_flat", r.list_requests_flat},
          {"list_requests_walk", r.list_requests_walk},
          {"walk_from_layout", r.walk_from_layout},
          {"load_s_nic", opt(r.load_s_nic)},
          {"load_s_share", opt(r.load_s_share)},
          {"usable_disk_bytes", opt(r.usable_disk_bytes)},
          {"fits_on_disk", opt(r.fits_on_disk)},
          {"epoch_s_min", opt(r.epoch_s_min)},
          {"epoch_bound", r.epoch_bound},
          {"request_latency_ms", r.request_latency_ms},
          {"latency_assumed", r.latency_assumed},
          {"request_overhead_s", r.request_overhead_s},
          {"small_file_basis", r.small_file_basis},
          {"small_file_basis_bytes", r.small_file_basis_bytes},
          {"small_files", r.small_files}};
}

void PrintHuman(const Parsed& p, const PlanResult& r) {
  const PlanInput& in = p.input;
  fmt::print("Dataset: {} in {} files (mean {}), read in {} blocks\n", Size(r.dataset_bytes),
             Grouped(r.files), Size(r.mean_file_bytes), FormatBytes(r.block_bytes));
  if (p.node.nic_gbps > 0)
    fmt::print("Node:    {}{} NIC, {} node{}\n", p.node.vm ? VmLabel(*p.node.vm) + ", " : "",
               Gbps(p.node.nic_gbps), r.nodes, r.nodes == 1 ? "" : "s");
  if (in.account_egress_gbps)
    fmt::print("Account: {}{}, {} egress\n", p.account.target.name,
               p.account.region.empty() ? "" : " in " + p.account.region,
               Gbps(*in.account_egress_gbps));

  fmt::print("\nRequests to read the data once\n");
  TextTable req;
  req.AlignRight(1);
  req.AddRow({"GET requests", Grouped(r.get_requests),
              r.requests_per_file == 1
                  ? "1 per file (files are no larger than a block)"
                  : fmt::format("{} per file ({} / {} blocks)", Grouped(r.requests_per_file),
                                Size(r.mean_file_bytes), FormatBytes(r.block_bytes))});
  req.AddRow({"List, one flat listing", Grouped(r.list_requests_flat),
              fmt::format("{} entries / 5,000 per page", Grouped(r.files))});
  req.AddRow(
      {"List, directory walk", Grouped(r.list_requests_walk),
       r.walk_from_layout
           ? fmt::format("{} dirs x {} files: {} for the parent + {} per dir (what a mount does)",
                         Grouped(*r.dirs), Grouped(*r.files_per_dir), Grouped(ListPages(*r.dirs)),
                         Grouped(ListPages(*r.files_per_dir)))
           : "no --dirs: one directory, same as the flat listing"});
  fmt::print("{}", req.Render());

  fmt::print("\nBest-case time (each node loads all the data, download mode)\n");
  TextTable time;
  time.AlignRight(1);
  if (r.load_s_nic)
    time.AddRow({"Over the NIC", Seconds(*r.load_s_nic),
                 fmt::format("{} at {} ({})", Size(r.dataset_bytes), Gbps(*in.nic_gbps),
                             FormatByteRate(*in.nic_gbps * 1e9 / 8))});
  if (r.load_s_share)
    time.AddRow({"Over the account share", Seconds(*r.load_s_share),
                 fmt::format("{} / {} node{} = {} each", Gbps(*in.account_egress_gbps), r.nodes,
                             r.nodes == 1 ? "" : "s", Gbps(*in.account_egress_gbps / r.nodes))});
  if (r.fits_on_disk)
    time.AddRow({"Fits on local disk", *r.fits_on_disk ? "yes" : "NO",
                 fmt::format("needs {}; {} disk minus the {} the data runtime keeps free",
                             Size(r.dataset_bytes), FormatBytes(*in.local_disk_bytes),
                             FormatBytes(kRuntimeReservedDiskBytes))});
  if (r.epoch_s_min)
    time.AddRow({fmt::format("Epoch at {} node{}", r.nodes, r.nodes == 1 ? "" : "s"),
                 Seconds(*r.epoch_s_min),
                 fmt::format("lower bound, set by {}{}", r.epoch_bound,
                             r.epochs != 1 ? fmt::format("; {} epochs: {}", FormatNumber(r.epochs),
                                                         Seconds(*r.epoch_s_min * r.epochs))
                                           : "")});
  if (r.load_s_nic || r.load_s_share || r.fits_on_disk || r.epoch_s_min)
    fmt::print("{}", time.Render());
  else
    fmt::print("  (give --sku or --nic-gbps, and --region or --account-egress-gbps)\n");

  fmt::print("\nSmall files\n");
  TextTable small;
  small.AlignRight(1);
  small.AddRow({"Request overhead", Seconds(r.request_overhead_s),
                fmt::format("{} GETs x {} ms{}, summed; divide by concurrent requests",
                            Grouped(r.get_requests), FormatNumber(r.request_latency_ms),
                            r.latency_assumed ? " (assumed; --request-latency-ms)" : "")});
  small.AddRow({fmt::format("{} file size", r.small_file_basis == "median" ? "Median" : "Mean"),
                Size(r.small_file_basis_bytes),
                r.small_files
                    ? "WARNING: under 4 MiB: request overhead dominates; pack into shards "
                      ">= 64 MiB (tar / WebDataset) or use premium block blob"
                    : "at or above 4 MiB"});
  fmt::print("{}", small.Render());
  if (!p.account.assumption.empty()) fmt::print("\nNote: {}\n", p.account.assumption);
}

int Run(const PlanOptions& o, const GlobalOptions& globals) {
  auto usage = [](const std::string& message) {
    fmt::print(stderr, "feedcheck plan: {}\n", message);
    return ToInt(ExitStatus::kUsage);
  };
  KnowledgeBase kb;
  if (int code = LoadKnowledgeBase(globals, &kb)) return code;
  Parsed p;
  FlagError e;
  if (!ParseAll(o, kb, &p, &e)) return usage(e.message);
  PlanResult r;
  std::string why;
  if (!ComputePlan(p.input, &r, &why)) return usage(why);

  if (globals.json) {
    Evidence ev;
    AddChoiceFacts(kb, p.node, p.account, r.nodes, &ev.facts);
    Declare(&ev.facts, "dataset.bytes", r.dataset_bytes, Unit::kBytes,
            p.input.dataset_bytes.has_value(), "--bytes");
    Declare(&ev.facts, "dataset.files", r.files, Unit::kCount, p.input.files.has_value(),
            "--files");
    Declare(&ev.facts, "dataset.mean_file_bytes", r.mean_file_bytes, Unit::kBytes,
            p.input.mean_file_bytes.has_value(), "--mean-file-bytes");
    if (p.input.median_file_bytes)
      Declare(&ev.facts, "dataset.median_file_bytes", *p.input.median_file_bytes, Unit::kBytes,
              true, "--median-file-bytes");
    if (r.dirs)
      Declare(&ev.facts, "dataset.dirs", *r.dirs, Unit::kCount, p.input.dirs.has_value(), "--dirs");
    if (r.files_per_dir)
      Declare(&ev.facts, "dataset.files_per_dir", *r.files_per_dir, Unit::kCount,
              p.input.files_per_dir.has_value(), "--files-per-dir");
    Declare(&ev.facts, "workload.epochs", r.epochs, Unit::kCount, true, "--epochs");
    AddPlanFacts(r, "plan calculator", &ev.facts);
    nlohmann::json facts = nlohmann::json::array();
    for (const auto& [key, fact] : ev.facts) facts.push_back(FactToJson(fact));
    nlohmann::json out = {{"schema_version", kEvidenceSchemaVersion},
                          {"command", "plan"},
                          {"result", ResultJson(r)},
                          {"facts", facts}};
    if (!p.account.assumption.empty()) out["assumptions"] = {p.account.assumption};
    fmt::print("{}\n", JsonText(out, 2));
    return ToInt(ExitStatus::kOk);
  }
  PrintHuman(p, r);
  return ToInt(ExitStatus::kOk);
}

}  // namespace

void SetupPlan(CLI::App& root, CommandTable& table) {
  auto o = std::make_shared<PlanOptions>();
  CLI::App* sub = root.add_subcommand(
      "plan", "Requests, listing cost, load time and disk fit of reading a dataset");
  sub->add_option("--bytes", o->bytes, "Total dataset size, e.g. 1TB, 50GB, 2.5TiB");
  sub->add_option("--files", o->files, "Number of files (blobs)");
  sub->add_option("--mean-file-bytes", o->mean_file_bytes, "Mean file size, e.g. 500KB");
  sub->add_option("--median-file-bytes", o->median_file_bytes,
                  "Median file size (for the small-file warning)");
  sub->add_option("--dirs", o->dirs, "Directories (layout: dirs x files per dir)");
  sub->add_option("--files-per-dir", o->files_per_dir, "Files per directory");
  sub->add_option("--block", o->block, "Read block size")->capture_default_str();
  sub->add_option("--sku", o->sku, "VM size of the nodes");
  sub->add_option("--nic-gbps", o->nic_gbps,
                  "Per-node network rate (Gbit/s); overrides the size's");
  sub->add_option("--nodes", o->nodes, "Nodes reading at once")->capture_default_str();
  sub->add_option("--region", o->region, "Storage account region, e.g. eastus");
  sub->add_option("--account-egress-gbps", o->account_egress_gbps, "Account egress limit (Gbit/s)");
  sub->add_option("--account-kind", o->account_kind, "Storage target from the knowledge base");
  sub->add_option("--epochs", o->epochs, "Passes over the data")->capture_default_str();
  sub->add_option("--request-latency-ms", o->request_latency_ms,
                  "Per-request latency for the overhead estimate (default: assumed 10 ms)");
  table.Add(sub, [o, &table] { return Run(*o, table.globals()); });
}

}  // namespace feedcheck::cli
