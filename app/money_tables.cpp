#include "app/money_tables.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "app/postmortem_report.h"

namespace feedcheck::app {
namespace {

constexpr const char* kSmallFilesRule = "small-files-pack-shards";
// The block a shard is read in: the same 4 MiB the rule counts requests with.
constexpr double kShardReadBlockBytes = 4.0 * 1024 * 1024;

std::string Usd(double usd) {
  return usd >= 100 ? fmt::format("${:.0f}", usd) : fmt::format("${:.2f}", usd);
}

std::string Count(double n) {
  std::string digits = fmt::format("{:.0f}", n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

GpuHourPrice JobGpuHourPrice(double given_usd_per_gpu_hour, const FactSet& facts,
                             const KnowledgeBase& kb) {
  const std::string sku = facts.Text("node.sku").value_or("");
  return ChooseGpuHourPrice(given_usd_per_gpu_hour, sku, sku.empty() ? nullptr : kb.FindVm(sku));
}

void AddGpuMoneyTable(const GpuHourPrice& price, Report* report) {
  const DiagnosisSummary d = DiagnosisOf(*report);
  if (!d.present) return;
  ReportTable t;
  t.title = "GPU time in money (an estimate)";
  t.columns = {{"what", "", false}, {"gpu_hours", "GPU-hours", true}, {"usd", "USD", true}};
  auto row = [&](const char* what, double gpu_s) {
    const double usd = GpuTimeUsd(gpu_s, price);
    if (usd < 0) return;
    t.rows.push_back({{what, std::nullopt},
                      {fmt::format("{:.1f}", gpu_s / 3600), gpu_s / 3600},
                      {Usd(usd), usd}});
  };
  if (d.gpu.known) row("GPU time lost", d.gpu.lost_gpu_s);
  row("lost to the cause", d.attributed_gpu_s);
  if (d.estimate.available && d.gpu.known)
    row("won back by the fix (estimate)",
        std::max(0.0, (d.estimate.idle_fraction_before - d.estimate.idle_fraction_after) *
                          d.gpu.sampled_gpu_s));
  if (price.known() && t.rows.empty())
    t.notes.push_back("No GPU samples were read: no GPU time to price.");
  t.notes.push_back(MoneyCaveat(price) + ".");
  t.note_briefs.resize(t.notes.size());
  t.note_briefs.back() = MoneyCaveatBrief(price) + ".";
  report->tables.push_back(std::move(t));
}

void AddSmallFilesReadCostTable(const KnowledgeBase& kb, Report* report) {
  const bool found = std::any_of(report->findings.begin(), report->findings.end(),
                                 [](const Finding& f) { return f.rule_id == kSmallFilesRule; });
  const auto files = report->evidence.facts.Number("dataset.files");
  const auto median = report->evidence.facts.Number("dataset.median_file_bytes");
  if (!found || !files || !median || *files <= 0 || *median < 0) return;
  const double now = *files;
  const double packed = std::max(1.0, std::ceil(*files * *median / kShardReadBlockBytes));
  ReportTable t;
  t.title = "Small files: storage read operations per epoch, priced (an estimate)";
  t.columns = {{"tier", "Access tier", false},        {"reads_now", "Reads now", true},
               {"usd_now", "USD now", true},          {"reads_packed", "Reads in shards", true},
               {"usd_packed", "USD in shards", true}, {"usd_saved", "Saved per epoch", true}};
  std::vector<std::string> bases;
  for (const auto& p : kb.read_prices()) {
    const double usd_now = ReadOpsUsd(now, p), usd_packed = ReadOpsUsd(packed, p);
    t.rows.push_back({{p.name, std::nullopt},
                      {Count(now), now},
                      {Usd(usd_now), usd_now},
                      {Count(packed), packed},
                      {Usd(usd_packed), usd_packed},
                      {Usd(usd_now - usd_packed), usd_now - usd_packed}});
    bases.push_back(fmt::format("{}: {}.", p.name, ReadPriceBasis(p)));
  }
  if (t.rows.empty()) {
    t.notes.push_back(
        "No read-operation price in the knowledge base: add a read_prices row (--kb FILE).");
  } else {
    // The caveat first (the terminal shows one note), then each tier's price and source.
    t.notes.push_back(fmt::format(
        "Per epoch, an estimate: one read per file now ({} files; more with listing and "
        "retries), one per 4 MiB block in shards; priced per 10,000 reads (standard, LRS).",
        Count(now)));
    t.notes.insert(t.notes.end(), bases.begin(), bases.end());
  }
  report->tables.push_back(std::move(t));
}

}  // namespace feedcheck::app
