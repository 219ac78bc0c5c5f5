#include "app/plan_workflow.h"

#include <fmt/format.h>

#include <cmath>

#include "app/cluster_choice.h"
#include "app/fact_gathering.h"
#include "core/diagnostic_codes.h"
#include "core/load_plan.h"
#include "core/plural.h"
#include "core/units.h"
#include "reports/text_table.h"

namespace feedcheck::app {
namespace {

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
bool ParseAll(const PlanRequest& o, const KnowledgeBase& kb, Parsed* out, FlagError* e) {
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

// The totals under the keys scripts have read since `plan --json` first had a result.
void AddResults(const PlanResult& r, Report* report) {
  auto number = [&](const char* key, double v, const char* unit, const char* label) {
    report->result.push_back({key, v, unit, label});
  };
  auto maybe = [&](const char* key, const std::optional<double>& v, const char* unit,
                   const char* label) {
    if (v) number(key, *v, unit, label);
  };
  number("dataset_bytes", r.dataset_bytes, "bytes", "Dataset");
  number("files", r.files, "", "Files");
  number("mean_file_bytes", r.mean_file_bytes, "bytes", "Mean file size");
  maybe("dirs", r.dirs, "", "Directories");
  maybe("files_per_dir", r.files_per_dir, "", "Files per directory");
  number("block_bytes", r.block_bytes, "bytes", "Read block");
  number("nodes", r.nodes, "", "Nodes");
  number("epochs", r.epochs, "", "Epochs");
  number("requests_per_file", r.requests_per_file, "", "GET requests per file");
  number("get_requests", r.get_requests, "", "GET requests");
  number("list_requests_flat", r.list_requests_flat, "", "List requests, flat");
  number("list_requests_walk", r.list_requests_walk, "", "List requests, directory walk");
  report->result.push_back({"walk_from_layout", r.walk_from_layout, "", "Walk from --dirs"});
  maybe("load_s_nic", r.load_s_nic, "s", "Load over the NIC");
  maybe("load_s_share", r.load_s_share, "s", "Load over the account share");
  maybe("usable_disk_bytes", r.usable_disk_bytes, "bytes", "Usable local disk");
  if (r.fits_on_disk) report->result.push_back({"fits_on_disk", *r.fits_on_disk, "", "Fits"});
  maybe("epoch_s_min", r.epoch_s_min, "s", "Epoch lower bound");
  report->result.push_back({"epoch_bound", r.epoch_bound, "", "Epoch bound by"});
  number("request_latency_ms", r.request_latency_ms, "ms", "Request latency");
  report->result.push_back({"latency_assumed", r.latency_assumed, "", "Latency assumed"});
  number("request_overhead_s", r.request_overhead_s, "s", "Request overhead");
  report->result.push_back({"small_file_basis", r.small_file_basis, "", "Small-file basis"});
  number("small_file_basis_bytes", r.small_file_basis_bytes, "bytes", "Small-file basis size");
  report->result.push_back({"small_files", r.small_files, "", "Small files"});
}

void AddFacts(const KnowledgeBase& kb, const Parsed& p, const PlanResult& r, FactSet* facts) {
  AddChoiceFacts(kb, p.node, p.account, r.nodes, facts);
  Declare(facts, "dataset.bytes", r.dataset_bytes, Unit::kBytes, p.input.dataset_bytes.has_value(),
          "--bytes");
  Declare(facts, "dataset.files", r.files, Unit::kCount, p.input.files.has_value(), "--files");
  Declare(facts, "dataset.mean_file_bytes", r.mean_file_bytes, Unit::kBytes,
          p.input.mean_file_bytes.has_value(), "--mean-file-bytes");
  if (p.input.median_file_bytes)
    Declare(facts, "dataset.median_file_bytes", *p.input.median_file_bytes, Unit::kBytes, true,
            "--median-file-bytes");
  if (r.dirs)
    Declare(facts, "dataset.dirs", *r.dirs, Unit::kCount, p.input.dirs.has_value(), "--dirs");
  if (r.files_per_dir)
    Declare(facts, "dataset.files_per_dir", *r.files_per_dir, Unit::kCount,
            p.input.files_per_dir.has_value(), "--files-per-dir");
  Declare(facts, "workload.epochs", r.epochs, Unit::kCount, true, "--epochs");
  AddPlanFacts(r, "plan calculator", facts);
}

ReportTable ThreeColumns(std::string title) {
  ReportTable t;
  t.title = std::move(title);
  t.columns = {{"what", ""}, {"value", "", true}, {"how", ""}};
  return t;
}

std::vector<TableCell> Row(std::string what, std::string value, std::optional<double> number,
                           std::string how) {
  return {
      {std::move(what), std::nullopt}, {std::move(value), number}, {std::move(how), std::nullopt}};
}

void AddTables(const Parsed& p, const PlanResult& r, Report* report) {
  const PlanInput& in = p.input;
  ReportTable req = ThreeColumns("Requests to read the data once");
  req.rows.push_back(
      Row("GET requests", Grouped(r.get_requests), r.get_requests,
          r.requests_per_file == 1
              ? "1 per file (files are no larger than a block)"
              : fmt::format("{} per file ({} / {} blocks)", Grouped(r.requests_per_file),
                            Size(r.mean_file_bytes), FormatBytes(r.block_bytes))));
  req.rows.push_back(Row("List, one flat listing", Grouped(r.list_requests_flat),
                         r.list_requests_flat,
                         fmt::format("{} / 5,000 per page", Counted(r.files, "entry", "entries"))));
  req.rows.push_back(Row(
      "List, directory walk", Grouped(r.list_requests_walk), r.list_requests_walk,
      r.walk_from_layout
          ? fmt::format("{} dirs x {} files: {} for the parent + {} per dir (what a mount does)",
                        Grouped(*r.dirs), Grouped(*r.files_per_dir), Grouped(ListPages(*r.dirs)),
                        Grouped(ListPages(*r.files_per_dir)))
          : "no --dirs: one directory, same as the flat listing"));
  report->tables.push_back(std::move(req));

  ReportTable time = ThreeColumns("Best-case time (each node loads all the data, download mode)");
  if (r.load_s_nic)
    time.rows.push_back(Row("Over the NIC", Seconds(*r.load_s_nic), *r.load_s_nic,
                            fmt::format("{} at {} ({})", Size(r.dataset_bytes), Gbps(*in.nic_gbps),
                                        FormatByteRate(*in.nic_gbps * 1e9 / 8))));
  if (r.load_s_share)
    time.rows.push_back(
        Row("Over the account share", Seconds(*r.load_s_share), *r.load_s_share,
            fmt::format("{} / {} node{} = {} each", Gbps(*in.account_egress_gbps), r.nodes,
                        r.nodes == 1 ? "" : "s", Gbps(*in.account_egress_gbps / r.nodes))));
  if (r.fits_on_disk)
    time.rows.push_back(
        Row("Fits on local disk", *r.fits_on_disk ? "yes" : "NO", std::nullopt,
            fmt::format("needs {}; {} disk minus the {} the data runtime keeps free",
                        Size(r.dataset_bytes), FormatBytes(*in.local_disk_bytes),
                        FormatBytes(kRuntimeReservedDiskBytes))));
  if (r.epoch_s_min)
    time.rows.push_back(
        Row(fmt::format("Epoch at {} node{}", r.nodes, r.nodes == 1 ? "" : "s"),
            Seconds(*r.epoch_s_min), *r.epoch_s_min,
            fmt::format("lower bound, set by {}{}", r.epoch_bound,
                        r.epochs != 1 ? fmt::format("; {} epochs: {}", FormatNumber(r.epochs),
                                                    Seconds(*r.epoch_s_min * r.epochs))
                                      : "")));
  if (time.rows.empty())
    time.notes.push_back("(give --sku or --nic-gbps, and --region or --account-egress-gbps)");
  report->tables.push_back(std::move(time));

  ReportTable small = ThreeColumns("Small files");
  small.rows.push_back(
      Row("Request overhead", Seconds(r.request_overhead_s), r.request_overhead_s,
          fmt::format("{} GETs x {} ms{}, summed; divide by concurrent requests",
                      Grouped(r.get_requests), FormatNumber(r.request_latency_ms),
                      r.latency_assumed ? " (assumed; --request-latency-ms)" : "")));
  small.rows.push_back(
      Row(fmt::format("{} file size", r.small_file_basis == "median" ? "Median" : "Mean"),
          Size(r.small_file_basis_bytes), r.small_file_basis_bytes,
          r.small_files ? "WARNING: under 4 MiB: request overhead dominates; pack into shards "
                          ">= 64 MiB (tar / WebDataset) or use premium block blob"
                        : "at or above 4 MiB"));
  if (!p.account.assumption.empty()) small.notes.push_back("Note: " + p.account.assumption);
  report->tables.push_back(std::move(small));
}

std::string Header(const Parsed& p, const PlanResult& r) {
  std::string out =
      fmt::format("Dataset: {} in {} (mean {}), read in {} blocks", Size(r.dataset_bytes),
                  Counted(r.files, "file"), Size(r.mean_file_bytes), FormatBytes(r.block_bytes));
  if (p.node.nic_gbps > 0)
    out += fmt::format("\nNode:    {}{} NIC, {} node{}",
                       p.node.vm ? VmLabel(*p.node.vm) + ", "
                       : !p.node.unknown_sku.empty()
                           ? p.node.unknown_sku + " (not in the knowledge base), "
                           : "",
                       Gbps(p.node.nic_gbps), r.nodes, r.nodes == 1 ? "" : "s");
  if (p.input.account_egress_gbps)
    out += fmt::format("\nAccount: {}{}, {} egress", p.account.target.name,
                       p.account.region.empty() ? "" : " in " + p.account.region,
                       Gbps(*p.input.account_egress_gbps));
  return out;
}

}  // namespace

Outcome RunPlan(const PlanRequest& request) {
  Outcome outcome;
  KnowledgeBase kb;
  if (!LoadKnowledgeBase(request.knowledge, &kb, &outcome.diagnostics)) {
    outcome.status = ExitStatus::kInputError;
    return outcome;
  }
  Parsed p;
  FlagError e;
  if (!ParseAll(request, kb, &p, &e))
    return Stopped(ExitStatus::kUsage, codes::kBadFlag, e.message);
  PlanResult r;
  std::string why;
  if (!ComputePlan(p.input, &r, &why))
    return Stopped(ExitStatus::kUsage, codes::kMissingInput, why);

  Report& report = outcome.report;
  report.context = CurrentRunContext("plan");
  report.title = "Plan";
  report.verdict_detail = Header(p, r);
  AddResults(r, &report);
  AddTables(p, r, &report);
  AddFacts(kb, p, r, &report.evidence.facts);
  outcome.has_report = true;
  return outcome;
}

}  // namespace feedcheck::app
