#include "core/load_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/units.h"

namespace feedcheck {
namespace {

// Counts come from decimal inputs (1TB / 500KB); keep a quotient that is whole on paper whole.
double CeilTolerant(double x) {
  double r = std::round(x);
  return std::fabs(x - r) <= 1e-9 * std::max(1.0, std::fabs(x)) ? r : std::ceil(x);
}

bool Positive(const std::optional<double>& v) { return v && *v > 0 && std::isfinite(*v); }

bool Fail(std::string* error, std::string message) {
  *error = std::move(message);
  return false;
}

}  // namespace

double ListPages(double entries) { return std::max(1.0, CeilTolerant(entries / kListPageEntries)); }

double WalkListRequests(double dirs, double files_per_dir) {
  return ListPages(dirs) + dirs * ListPages(files_per_dir);
}

double GetRequests(double files, double file_bytes, double block_bytes) {
  double per_file = file_bytes <= block_bytes ? 1 : CeilTolerant(file_bytes / block_bytes);
  return files * per_file;
}

bool ComputePlan(const PlanInput& in, PlanResult* out, std::string* error) {
  for (const auto& [value, name] : {std::pair{in.dataset_bytes, "--bytes"},
                                    {in.files, "--files"},
                                    {in.mean_file_bytes, "--mean-file-bytes"},
                                    {in.median_file_bytes, "--median-file-bytes"},
                                    {in.dirs, "--dirs"},
                                    {in.files_per_dir, "--files-per-dir"},
                                    {in.nic_gbps, "--nic-gbps"},
                                    {in.account_egress_gbps, "--account-egress-gbps"}}) {
    if (value && !Positive(value)) return Fail(error, fmt::format("{} must be above 0", name));
  }
  if (!(in.block_bytes > 0) || !std::isfinite(in.block_bytes))
    return Fail(error, "--block must be above 0");
  if (in.nodes < 1) return Fail(error, "--nodes must be at least 1");
  if (!(in.epochs > 0) || !std::isfinite(in.epochs)) return Fail(error, "--epochs must be above 0");
  if (in.request_latency_ms && !(*in.request_latency_ms >= 0))
    return Fail(error, "--request-latency-ms must not be negative");

  PlanResult r;
  r.block_bytes = in.block_bytes;
  r.nodes = in.nodes;
  r.epochs = in.epochs;

  // --- shape: files from --files, or dirs x files per dir, or bytes / mean ---
  std::optional<double> layout_files;
  if (in.dirs && in.files_per_dir) layout_files = *in.dirs * *in.files_per_dir;
  if (in.files && layout_files && std::fabs(*in.files - *layout_files) > 0.5)
    return Fail(error, fmt::format("--files {} disagrees with --dirs x --files-per-dir = {}",
                                   FormatNumber(*in.files), FormatNumber(*layout_files)));
  std::optional<double> files = in.files ? in.files : layout_files;
  if (!files && in.dataset_bytes && in.mean_file_bytes)
    files = CeilTolerant(*in.dataset_bytes / *in.mean_file_bytes);
  if (!files)
    return Fail(error,
                "the file count is unknown: give --files, --mean-file-bytes with --bytes, or "
                "--dirs with --files-per-dir");
  r.files = *files;

  if (in.dataset_bytes) {
    r.dataset_bytes = *in.dataset_bytes;
  } else if (in.mean_file_bytes) {
    r.dataset_bytes = *in.mean_file_bytes * r.files;
  } else {
    return Fail(error, "the dataset size is unknown: give --bytes (or --mean-file-bytes)");
  }
  r.mean_file_bytes = r.dataset_bytes / r.files;
  if (in.mean_file_bytes && in.dataset_bytes && (in.files || layout_files) &&
      std::fabs(r.mean_file_bytes - *in.mean_file_bytes) > 0.01 * *in.mean_file_bytes)
    return Fail(error,
                fmt::format("--mean-file-bytes {} disagrees with --bytes / file count = {}",
                            FormatBytes(*in.mean_file_bytes), FormatBytes(r.mean_file_bytes)));
  if (in.mean_file_bytes) r.mean_file_bytes = *in.mean_file_bytes;
  // At least half the files are as large as the median: they alone must fit in the dataset.
  if (in.median_file_bytes &&
      std::ceil(r.files / 2) * *in.median_file_bytes > r.dataset_bytes * (1 + 1e-9))
    return Fail(error, fmt::format("--median-file-bytes {} cannot be: half of the {} files at "
                                   "that size or more would hold {}, more than the dataset's {}",
                                   FormatBytes(*in.median_file_bytes), FormatGrouped(r.files),
                                   FormatBytes(std::ceil(r.files / 2) * *in.median_file_bytes),
                                   FormatBytes(r.dataset_bytes)));

  // --- requests ---
  r.requests_per_file =
      r.mean_file_bytes <= r.block_bytes ? 1 : CeilTolerant(r.mean_file_bytes / r.block_bytes);
  r.get_requests = r.files * r.requests_per_file;
  r.list_requests_flat = ListPages(r.files);
  if (in.dirs || in.files_per_dir) {
    r.dirs = in.dirs ? *in.dirs : CeilTolerant(r.files / *in.files_per_dir);
    r.files_per_dir = in.files_per_dir ? *in.files_per_dir : CeilTolerant(r.files / *in.dirs);
    r.list_requests_walk = WalkListRequests(*r.dirs, *r.files_per_dir);
    r.walk_from_layout = true;
  } else {
    // Without a layout all files sit under one prefix: the walk is the flat listing.
    r.list_requests_walk = r.list_requests_flat;
  }

  // --- time: each node loading the whole dataset (download mode) ---
  const double bits = r.dataset_bytes * 8;
  if (in.nic_gbps) r.load_s_nic = bits / (*in.nic_gbps * 1e9);
  if (in.account_egress_gbps) r.load_s_share = bits / (*in.account_egress_gbps * 1e9 / r.nodes);

  // --- one epoch: all nodes together read the dataset once (each its shard) ---
  std::optional<double> cluster_gbps;
  if (in.nic_gbps) {
    cluster_gbps = *in.nic_gbps * r.nodes;
    r.epoch_bound = "NIC";
  }
  if (in.account_egress_gbps && (!cluster_gbps || *in.account_egress_gbps < *cluster_gbps)) {
    cluster_gbps = *in.account_egress_gbps;
    r.epoch_bound = "account egress";
  }
  if (cluster_gbps) r.epoch_s_min = bits / (*cluster_gbps * 1e9);
  if (in.account_requests_per_s && *in.account_requests_per_s > 0) {
    double by_requests = r.get_requests / *in.account_requests_per_s;
    if (!r.epoch_s_min || by_requests > *r.epoch_s_min) {
      r.epoch_s_min = by_requests;
      r.epoch_bound = "request rate";
    }
  }

  // --- local disk (download mode needs the data to fit) ---
  if (in.local_disk_bytes) {
    r.usable_disk_bytes = std::max(0.0, *in.local_disk_bytes - kRuntimeReservedDiskBytes);
    r.fits_on_disk = r.dataset_bytes <= *r.usable_disk_bytes;
  }

  // --- small files ---
  r.latency_assumed = !in.request_latency_ms.has_value();
  r.request_latency_ms = in.request_latency_ms.value_or(kDefaultRequestLatencyMs);
  r.request_overhead_s = r.get_requests * r.request_latency_ms / 1e3;
  r.small_file_basis = in.median_file_bytes ? "median" : "mean";
  r.small_file_basis_bytes = in.median_file_bytes.value_or(r.mean_file_bytes);
  r.small_files = r.small_file_basis_bytes < kSmallFileBytes;

  *out = r;
  return true;
}

void AddPlanFacts(const PlanResult& r, const std::string& source, FactSet* facts) {
  Provenance p;
  p.origin = FactOrigin::kDerived;
  p.source = source;
  facts->Set(NumberFact("plan.get_requests", r.get_requests, Unit::kCount, p));
  facts->Set(NumberFact("plan.list_requests_walk", r.list_requests_walk, Unit::kCount, p));
  facts->Set(NumberFact("plan.list_requests_flat", r.list_requests_flat, Unit::kCount, p));
  if (r.load_s_nic) facts->Set(NumberFact("plan.load_s_nic", *r.load_s_nic, Unit::kSeconds, p));
  if (r.load_s_share)
    facts->Set(NumberFact("plan.load_s_share", *r.load_s_share, Unit::kSeconds, p));
  if (r.epoch_s_min) facts->Set(NumberFact("plan.epoch_s_min", *r.epoch_s_min, Unit::kSeconds, p));
  if (r.fits_on_disk) facts->Set(BoolFact("plan.fits_on_disk", *r.fits_on_disk, p));
  facts->Set(NumberFact("plan.request_overhead_s", r.request_overhead_s, Unit::kSeconds, p));
  facts->Set(NumberFact("plan.request_latency_ms", r.request_latency_ms, Unit::kMilliseconds, p));
  facts->Set(BoolFact("plan.small_files", r.small_files, p));
  facts->Set(NumberFact("plan.requests_per_file", r.requests_per_file, Unit::kCount, p));
}

}  // namespace feedcheck
