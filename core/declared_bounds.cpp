#include "core/declared_bounds.h"

#include <fmt/format.h>

#include <cmath>

namespace feedcheck {
namespace {

struct Bounds {
  std::string_view key;
  double min;  ///< in the fact's unit; above 0 where 0 is not a value this quantity can have
  double max;
};

// Capacities and sizes that cannot be 0 (a rate's floor is 1 Mbit/s). The ceilings are far past
// any real value (the fastest Azure VM NIC is 200 Gbit/s; standard accounts' egress is raised on
// request to a few Tbit/s), so they catch typos and overflow, not large clusters.
constexpr Bounds kBounds[] = {
    {"node.nic_gbps", 0.001, 10'000},  // 10 Tbit/s
    {"node.vcpus", 1, 100'000},
    {"node.ram_bytes", 1, 1e15},                // 1 PB
    {"account.egress_gbps", 0.001, 1'000'000},  // 1 Pbit/s
    {"account.ingress_gbps", 0.001, 1'000'000},
    {"account.requests_per_s", 1, 1e9},
    {"dataset.bytes", 1, 1e21},  // 1 ZB
    {"dataset.files", 1, 1e13},
    {"dataset.median_file_bytes", 1, 1e16},  // 10 PB, past Azure's 190.7 TiB block blob
    {"dataset.mean_file_bytes", 1, 1e16},
    {"dataset.max_file_bytes", 1, 1e16},
    {"dataset.dirs", 1, 1e13},
    {"dataset.files_per_dir", 1, 1e13},
    {"workload.epochs", 0.001, 1e6},
    {"workload.readers", 1, 1e6},
    {"workload.checkpoint_every_s", 1, 1e8},  // a second to three years
    {"workload.gpu_demand_gbps", 0.000001, 1e6},
    {"workload.gpu_demand_per_gpu_gbps", 0.000001, 1e5},
    {"workload.processes_per_node", 1, 1e5},
};

// Per unit, for every other numeric fact: no negative amounts and nothing past what no
// instrument reports.
double UnitCeiling(Unit unit) {
  switch (unit) {
    case Unit::kGbps:
      return 1e6;
    case Unit::kMbps:
      return 1e9;
    case Unit::kBytesPerSecond:
      return 1.25e14;
    case Unit::kBytes:
      return 1e21;
    case Unit::kFraction:
      return 1;
    case Unit::kPercent:
      return 100;
    default:
      return INFINITY;
  }
}

std::string Amount(double value, Unit unit) {
  return unit == Unit::kCount ? FormatGrouped(value, 4) : FormatValue(value, unit);
}

}  // namespace

std::optional<std::string> DeclaredValueProblem(std::string_view key, double value, Unit unit) {
  if (std::isnan(value)) return std::string("is not a number");
  if (value < 0) return std::string("cannot be negative");
  double min = 0, max = UnitCeiling(unit);
  for (const auto& b : kBounds) {
    if (b.key != key) continue;
    min = b.min;
    max = b.max;
  }
  if (value == 0 && min > 0) return std::string("must be above 0");
  if (value < min) return fmt::format("must be at least {}", Amount(min, unit));
  if (value > max) return fmt::format("must be at most {}", Amount(max, unit));
  return std::nullopt;
}

std::vector<DeclaredContradiction> DeclaredContradictions(const FactSet& facts) {
  std::vector<DeclaredContradiction> out;
  auto declared = [&](const char* key) -> std::optional<double> {
    const Fact* f = facts.Find(key);
    if (!f || !f->is_number() || f->provenance.origin < FactOrigin::kDeclared) return std::nullopt;
    return f->number();
  };
  auto bytes = [](double v) { return FormatValue(v, Unit::kBytes); };
  const auto total = declared("dataset.bytes");
  const auto files = declared("dataset.files");
  const auto largest = declared("dataset.max_file_bytes");
  for (const char* key : {"dataset.median_file_bytes", "dataset.mean_file_bytes"}) {
    const auto size = declared(key);
    if (!size) continue;
    if (largest && *size > *largest)
      out.push_back({key, fmt::format("{} ({}) is larger than dataset.max_file_bytes ({}): the "
                                      "typical file cannot be larger than the largest",
                                      key, bytes(*size), bytes(*largest))});
    if (total && *size > *total)
      out.push_back({key, fmt::format("{} ({}) is larger than the whole dataset, dataset.bytes "
                                      "({}): check the units (MB for GB?)",
                                      key, bytes(*size), bytes(*total))});
  }
  if (largest && total && *largest > *total)
    out.push_back({"dataset.max_file_bytes",
                   fmt::format("dataset.max_file_bytes ({}) is larger than the whole dataset, "
                               "dataset.bytes ({}): check the units",
                               bytes(*largest), bytes(*total))});
  // At least half the files are at least the median: half the files at the median size must fit
  // in the dataset. (The mean is checked both ways below; the median bounds from one side only,
  // a few large files can hold most of the bytes.)
  const auto median = declared("dataset.median_file_bytes");
  if (total && files && median && *files >= 2) {
    const double least = std::floor(*files / 2) * *median;
    if (least > 1.01 * *total)
      out.push_back(
          {"dataset.median_file_bytes",
           fmt::format("dataset.files x dataset.median_file_bytes: at least half of the {} "
                       "files are {} or larger, {} at least, more than dataset.bytes ({}): one "
                       "of them is wrong",
                       FormatGrouped(*files, 4), bytes(*median), bytes(least), bytes(*total))});
  }
  const auto mean = declared("dataset.mean_file_bytes");
  if (total && files && mean) {
    const double implied = *files * *mean;
    if (implied > 2 * *total || 2 * implied < *total)
      out.push_back(
          {"dataset.mean_file_bytes",
           fmt::format("dataset.files x dataset.mean_file_bytes = {} x {} = {}, more "
                       "than 2x away from dataset.bytes ({}): one of them is wrong",
                       FormatGrouped(*files, 4), bytes(*mean), bytes(implied), bytes(*total))});
  }
  return out;
}

}  // namespace feedcheck
