#include "core/money.h"

#include <fmt/format.h>

namespace feedcheck {

GpuHourPrice ChooseGpuHourPrice(double given_usd_per_gpu_hour, std::string_view sku,
                                const VmSize* vm) {
  GpuHourPrice p;
  if (given_usd_per_gpu_hour >= 0) {
    p.usd_per_gpu_hour = given_usd_per_gpu_hour;
    p.given = true;
    p.basis = fmt::format("the price you gave (--gpu-hour-price {:.2f} USD per GPU-hour)",
                          given_usd_per_gpu_hour);
    p.brief = p.basis;
    return p;
  }
  p.sku = vm ? vm->name : std::string(sku);
  if (sku.empty() && !vm) {
    p.missing =
        "no VM size known for this job (--sku or the profile's sku): give --sku or "
        "--gpu-hour-price to see GPU time in money";
    return p;
  }
  if (!vm || vm->gpus <= 0) {
    p.missing =
        fmt::format("{} is not a GPU size the knowledge base knows: give --gpu-hour-price", p.sku);
    return p;
  }
  if (vm->price_usd_per_hour < 0) {
    p.missing = fmt::format("no public price known for SKU {}: give --gpu-hour-price", vm->name);
    return p;
  }
  p.usd_per_gpu_hour = vm->price_usd_per_hour / vm->gpus;
  p.basis = fmt::format(
      "{}: {:.3f} USD per VM-hour pay-as-you-go (Linux, {}, as of {}) / {} GPU{} = {:.3f} USD "
      "per GPU-hour; source: {}",
      vm->name, vm->price_usd_per_hour, vm->price_region, vm->price_as_of, vm->gpus,
      vm->gpus == 1 ? "" : "s", p.usd_per_gpu_hour, vm->price_source);
  p.brief = fmt::format("{:.3f} USD per GPU-hour ({}, {}, {}, \"{}\")", p.usd_per_gpu_hour,
                        vm->name, vm->price_region, vm->price_as_of, SourceTitle(vm->price_source));
  return p;
}

double GpuTimeUsd(double gpu_s, const GpuHourPrice& price) {
  if (gpu_s < 0 || !price.known()) return -1;
  return gpu_s / 3600 * price.usd_per_gpu_hour;
}

std::string MoneyCaveat(const GpuHourPrice& price) {
  if (!price.known()) return price.missing;
  return fmt::format(
      "An estimate from {}, not a bill: your region, reservations, savings plans, discounts and "
      "the job's other costs (storage, network) are not in it",
      price.basis);
}

std::string MoneyCaveatBrief(const GpuHourPrice& price) {
  if (!price.known()) return price.missing;
  return fmt::format("An estimate, not a bill: {}; -v: {}what it leaves out", price.brief,
                     price.given ? "" : "the source, ");
}

std::string SourceTitle(std::string_view source) {
  const size_t open = source.find('"');
  const size_t url = source.find("://");
  if (open != std::string_view::npos && (url == std::string_view::npos || open < url)) {
    const size_t close = source.find('"', open + 1);
    if (close != std::string_view::npos && close > open + 1)
      return std::string(source.substr(open + 1, close - open - 1));
  }
  if (url != std::string_view::npos) {
    // Back to the start of the URL's word, then past the separators before it.
    size_t start = source.find_last_of(" (", url);
    std::string_view before = source.substr(0, start == std::string_view::npos ? 0 : start);
    while (!before.empty() && (before.back() == ' ' || before.back() == ',' ||
                               before.back() == ';' || before.back() == '('))
      before.remove_suffix(1);
    if (!before.empty()) return std::string(before);
  }
  return std::string(source);
}

double ReadOpsUsd(double reads, const StorageReadPrice& price) {
  return reads < 0 ? -1 : reads / 10000 * price.usd_per_10k_reads;
}

std::string ReadPriceBasis(const StorageReadPrice& price) {
  return fmt::format("{} USD per 10,000 reads ({} tier, {}, as of {}; source: {})",
                     price.usd_per_10k_reads, price.name, price.region, price.as_of, price.source);
}

}  // namespace feedcheck
