// Money in a report, as tables every format shows: the post-mortem's GPU time priced per
// GPU-hour, and the small-files advice's read operations per epoch priced per access tier
// (what packing into shards saves). Each figure says it is an estimate and from which price.
#pragma once

#include "core/knowledge_base.h"
#include "core/money.h"
#include "reports/report.h"

namespace feedcheck::app {

/// The price of one GPU-hour for this job: --gpu-hour-price (>= 0) when given, else the price
/// of the VM size its facts name (node.sku), from the knowledge base.
GpuHourPrice JobGpuHourPrice(double given_usd_per_gpu_hour, const FactSet& facts,
                             const KnowledgeBase& kb);

/// "GPU time in money (estimate)": GPU time lost, lost to the cause, won back by the fix, in
/// GPU-hours and USD, with the price's basis as a note. Without a price: no rows, the note says
/// why (no public price for the size: give --gpu-hour-price). Added when the diagnosis ran.
void AddGpuMoneyTable(const GpuHourPrice& price, Report* report);

/// When the small-files finding (rule small-files-pack-shards) is in the report and the facts
/// give dataset.files and dataset.median_file_bytes: read operations per epoch now (one per
/// file) and packed into shards (one per 4 MiB block), priced for each tier the knowledge base
/// prices, and what packing saves per epoch.
void AddSmallFilesReadCostTable(const KnowledgeBase& kb, Report* report);

}  // namespace feedcheck::app
