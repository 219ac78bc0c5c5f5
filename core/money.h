// Money, always as an estimate from a named price: the price of one GPU-hour (the VM's
// pay-as-you-go price over its GPUs, or the user's --gpu-hour-price) and the price of the read
// operations a dataset's files cost per epoch. Computes; the app layer turns it into tables.
#pragma once

#include <string>
#include <string_view>

#include "core/knowledge_base.h"

namespace feedcheck {

/// The price of one GPU-hour and where it comes from.
struct GpuHourPrice {
  double usd_per_gpu_hour = -1;  ///< < 0: no price (then `missing` says why)
  bool given = false;            ///< from --gpu-hour-price
  std::string sku;               ///< the VM size priced, "" when given or unknown
  /// "the price you gave (--gpu-hour-price 2.50 USD per GPU-hour)" or "Standard_ND96asr_v4:
  /// 27.20 USD per VM-hour pay-as-you-go (Linux, eastus, as of 2026-11-09) / 8 GPUs; source: ..."
  std::string basis;
  /// The same, short: "3.400 USD per GPU-hour (Standard_ND96asr_v4, eastus, 2026-11-09, "109 -
  /// What an H100 actually costs per hour")": the source by its title only.
  std::string brief;
  /// Why there is no price: "no public price known for SKU X: give --gpu-hour-price", or "".
  std::string missing;
  bool known() const { return usd_per_gpu_hour >= 0; }
};

/// --gpu-hour-price when given (>= 0) overrides; else the VM size's price over its GPUs. `sku`
/// is the size named by the job (--sku, the profile), `vm` its row (null when not known).
GpuHourPrice ChooseGpuHourPrice(double given_usd_per_gpu_hour, std::string_view sku,
                                const VmSize* vm);

/// USD for `gpu_s` GPU-seconds at `price`; < 0 when either is unknown.
double GpuTimeUsd(double gpu_s, const GpuHourPrice& price);

/// The sentence every money figure carries: an estimate, from which price, what it leaves out.
std::string MoneyCaveat(const GpuHourPrice& price);

/// MoneyCaveat in a few words, for a screen that must say less: the price and its source's
/// title, ending in what -v adds (the source whole, what the estimate leaves out).
std::string MoneyCaveatBrief(const GpuHourPrice& price);

/// A cited source's title: its first quoted part ('data-receipts, "109 - What an H100 ...",
/// hyperscalers.json ..., https://...' -> "109 - What an H100 ..."), else the text before its
/// first URL, else the whole text.
std::string SourceTitle(std::string_view source);

/// USD for `reads` read operations at the tier's price per 10,000.
double ReadOpsUsd(double reads, const StorageReadPrice& price);

/// "0.0044 USD per 10,000 reads (hot tier, LRS, eastus, as of 2026-05-05; source: ...)".
std::string ReadPriceBasis(const StorageReadPrice& price);

}  // namespace feedcheck
