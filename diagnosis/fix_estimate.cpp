#include "diagnosis/fix_estimate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "core/plural.h"
#include "core/supply_model.h"
#include "core/units.h"
#include "core/whole_number.h"

namespace feedcheck::diagnosis {

namespace {

std::optional<double> Number(const FactSet& facts, const char* key) {
  const Fact* f = facts.Find(key);
  if (f && f->is_number()) return f->number();
  if (f && f->is_text()) {
    try {
      return std::stod(f->text());
    } catch (...) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::string Text(const FactSet& facts, const char* key) {
  const Fact* f = facts.Find(key);
  return f && f->is_text() ? f->text() : "";
}

std::string Pct(double fraction) { return fmt::format("{:.0f}%", fraction * 100); }

// The data phase whose GPU time a faster data path gives back.
struct Phase {
  std::string name;  // "download", "mount reads"
  double wall_s = 0;
  double lost_gpu_s = 0;
  double moved_share = 1;  // of the phase's idle time, what the cause's state held
};

// The data phase is a span of the job's timeline, not an attribution: how long the GPUs waited
// while a download ran (gpu.lost_download_gpu_s) or while a mount's reads were served
// (gpu.lost_mount_gpu_s), as the analyzers timed it. Which cause held that time, and so what a
// fix moves of it, is the idle ledger's (LedgerReplay::cause_gpu_s).
std::optional<Phase> DataPhase(const FactSet& facts, const GpuTimeLost& gpu) {
  if (!gpu.known) return std::nullopt;
  const auto download = Number(facts, "gpu.lost_download_gpu_s");
  if (download && *download > 0) {
    double wall = Number(facts, "runtime.download_s").value_or(*download / gpu.gpus);
    return Phase{"download", wall, *download};
  }
  // Without timed phases, all of the time lost.
  const double lost =
      download ? *download + Number(facts, "gpu.lost_mount_gpu_s").value_or(0) : gpu.lost_gpu_s;
  if (lost <= 0) return std::nullopt;
  // A mount's reads: the GPUs wait only where they stood idle, so that is the phase.
  return Phase{"waiting for reads", lost / std::max(1, gpu.gpus), lost};
}

FixEstimate Finish(const FactSet& facts, const GpuTimeLost& gpu, const Phase& phase, double speedup,
                   const std::string& fix) {
  FixEstimate e;
  // Only the part of the phase the cause held is sped up; the rest waits as it did.
  const double moved_wall_s = phase.wall_s * phase.moved_share;
  IdleAfterSpeedup after = PredictIdleAfterSpeedup(gpu.lost_gpu_s, gpu.sampled_gpu_s,
                                                   phase.lost_gpu_s * phase.moved_share,
                                                   moved_wall_s, gpu.gpus, speedup);
  (void)facts;
  e.available = true;
  e.idle_fraction_before = gpu.idle_fraction;
  e.idle_fraction_after = after.idle_fraction;
  e.text =
      fmt::format("{}: {} ~{} instead of {}, GPUs idle {} instead of {}", fix, phase.name,
                  FormatSeconds(phase.wall_s - moved_wall_s + after.phase_s),
                  FormatSeconds(phase.wall_s), Pct(after.idle_fraction), Pct(gpu.idle_fraction));
  return e;
}

FixEstimate Unavailable(std::string why) {
  FixEstimate e;
  e.text = std::move(why);
  return e;
}

}  // namespace

namespace {

FixEstimate EstimateFixOfPhase(Bottleneck cause, const FactSet& facts, const GpuTimeLost& gpu,
                               const LedgerReplay& replay, Phase* phase_ptr) {
  Phase* phase = phase_ptr;
  // Nodes: as declared, else as many as sent GPU samples.
  int sampled_nodes = 0;
  for (const auto& [key, fact] : facts)
    if (key.rfind("gpu.node_gpus.", 0) == 0) ++sampled_nodes;
  const int counted_nodes = std::max(1, sampled_nodes);
  const int nodes =
      WholeNumber<int>(Number(facts, "node.count").value_or(counted_nodes)).value_or(counted_nodes);
  double nic = Number(facts, "node.nic_gbps").value_or(0);
  double limit = Number(facts, "account.egress_gbps").value_or(0);
  switch (cause) {
    case Bottleneck::kAccountEgress: {
      auto observed = Number(facts, "metrics.egress_gbps_during_download");
      if (!observed) observed = Number(facts, "metrics.egress_gbps_peak");
      if (!observed || *observed <= 0 || limit <= 0)
        return Unavailable(
            "no estimate: needs the account's Egress metric and its limit (--region or "
            "--account-egress-gbps)");
      // This job's own rate, when its bytes and its download time are known: on a shared
      // account the total is mostly other workloads', and the job's share is what a fix moves.
      auto bytes = Number(facts, "dataset.bytes");
      auto download_s = Number(facts, "runtime.download_s");
      std::optional<double> own;
      std::string own_from;
      if (bytes && download_s && *bytes > 0 && *download_s > 0 && phase->name == "download") {
        own = *bytes * 8 / 1e9 / *download_s;
        own_from = fmt::format("{} in {}", FormatBytes(*bytes), FormatSeconds(*download_s));
      } else if (replay.others_egress_gbps > 0 && *observed > replay.others_egress_gbps) {
        own = *observed - replay.others_egress_gbps;
        own_from = fmt::format(
            "the account's Egress less the {} other clients read in the "
            "job's quiet minutes",
            FormatBitRate(replay.others_egress_gbps * 1e9));
      }
      if (own) {
        if (*own < 0.7 * *observed) {
          double can = nic > 0 ? std::min(nodes * nic, limit) : limit;
          if (auto cap = Number(facts, "runtime.latency_cap_gbps"); cap && *cap > 0)
            can = std::min(can, nodes * *cap);
          if (can <= 1.05 * *own)
            return Unavailable(fmt::format(
                "no figure: this job read at {} of the account's {}; an account of its own "
                "({}) would not make it faster",
                FormatBitRate(*own * 1e9), FormatBitRate(*observed * 1e9),
                FormatBitRate(can * 1e9)));
          FixEstimate e =
              Finish(facts, gpu, *phase, can / *own, "an account of its own for the input");
          e.assumptions = {
              fmt::format("the account served {} during the {}, this job {} of it ({}): other "
                          "workloads took the rest",
                          FormatBitRate(*observed * 1e9), phase->name, FormatBitRate(*own * 1e9),
                          own_from),
              fmt::format("on an account of its own the {} runs at {} (min of the nodes' NICs, "
                          "the rate their requests' latency allows and the account's limit)",
                          phase->name, FormatBitRate(can * 1e9)),
              "nothing else in the job changes"};
          return e;
        }
      }
      int accounts = std::max(2, AccountsForFullRate(nodes, nic, limit));
      FixEstimate e;
      if (nic > 0 && nodes * nic < 0.9 * *observed) {
        // The account served more than this job's NICs can pull: other clients share it, and
        // this job's own rate is unknown. Its share is assumed to grow with the accounts.
        e = Finish(facts, gpu, *phase, accounts, fmt::format("{} accounts", accounts));
        e.assumptions = {
            fmt::format("the account also served other clients ({} observed, more than {} "
                        "nodes x {}): this job's share grows {}x with {} accounts",
                        FormatBitRate(*observed * 1e9), nodes, FormatBitRate(nic * 1e9), accounts,
                        accounts),
            "nothing else in the job changes"};
        return e;
      }
      double aggregate = AggregateWithAccounts(nodes, nic, limit, accounts);
      double speedup = std::max(1.0, aggregate / *observed);
      e = Finish(facts, gpu, *phase, speedup, fmt::format("{} accounts", accounts));
      e.assumptions = {
          fmt::format("the data is replicated to {} accounts and the ranks split between them",
                      accounts),
          nic > 0 ? fmt::format("the {} runs at {} instead of the {} observed: min({} x "
                                "{}, {} x {})",
                                phase->name, FormatBitRate(aggregate * 1e9),
                                FormatBitRate(*observed * 1e9), Counted(nodes, "node"),
                                FormatBitRate(nic * 1e9), accounts, FormatBitRate(limit * 1e9))
                  : fmt::format("the {} runs at {} x {} = {} instead of the {} observed (the "
                                "nodes' NIC is unknown: --sku caps it)",
                                phase->name, accounts, FormatBitRate(limit * 1e9),
                                FormatBitRate(aggregate * 1e9), FormatBitRate(*observed * 1e9)),
          "nothing else in the job changes"};
      return e;
    }
    case Bottleneck::kRequestRate: {
      FixEstimate e = Finish(facts, gpu, *phase, 2.0, "2 accounts (or shards 2x larger)");
      e.assumptions = {
          "the request rate the account allows doubles and the job's reads keep "
          "pace with it (an upper bound)",
          "nothing else in the job changes"};
      return e;
    }
    case Bottleneck::kAccessMode: {
      if (phase->name != "download")
        return Unavailable("no estimate: the GPUs did not wait for a download");
      FixEstimate e = Finish(facts, gpu, *phase, std::numeric_limits<double>::infinity(),
                             "ro_mount instead of download");
      e.text += " (first epoch)";
      e.assumptions = {
          "the mount delivers data as fast as the GPUs consume it (the account and "
          "the NIC carry the GPUs' input rate)",
          "later epochs read the mount's cache or storage instead of local disk"};
      return e;
    }
    case Bottleneck::kClientThreads: {
      std::string var = Text(facts, "runtime.mode") == "download" ||
                                !Text(facts, "runtime.setting.RSLEX_DOWNLOADER_THREADS").empty()
                            ? "RSLEX_DOWNLOADER_THREADS"
                            : "DATASET_MOUNT_READ_THREADS";
      auto threads = Number(facts, ("runtime.setting." + var).c_str());
      auto vcpus = Number(facts, "node.vcpus");
      auto observed = Number(facts, "metrics.egress_gbps_during_download");
      if (!observed) observed = Number(facts, "metrics.egress_gbps_mean");
      if (!threads || *threads <= 0 || !vcpus || !observed || *observed <= 0 || nic <= 0)
        return Unavailable(fmt::format(
            "no estimate: needs {} from the log, the VM size (--sku) and the account's Egress "
            "metric for the rate per node",
            var));
      double per_node = *observed / std::max(1, nodes);
      double cap = limit > 0 ? std::min(nic, limit / std::max(1, nodes)) : nic;
      double speedup = std::max(1.0, std::min(*vcpus * 4 / *threads, cap / per_node));
      FixEstimate e =
          Finish(facts, gpu, *phase, speedup, fmt::format("{}={:.0f}", var, *vcpus * 4));
      e.assumptions = {
          fmt::format("the rate per node grows with the threads ({:.0f} -> {:.0f}) up to "
                      "min(NIC, the node's share of the account) = {}",
                      *threads, *vcpus * 4, FormatBitRate(cap * 1e9)),
          "the account stays under its limits"};
      return e;
    }
    default:
      return Unavailable(fmt::format("no estimate for {}: the supply model has no figure for it",
                                     BottleneckName(cause)));
  }
}

}  // namespace

FixEstimate EstimateFix(Bottleneck cause, const FactSet& facts, const GpuTimeLost& gpu,
                        const LedgerReplay& replay) {
  auto phase = DataPhase(facts, gpu);
  if (!phase)
    return Unavailable(gpu.known ? "no estimate: no GPU time was lost while data loaded"
                                 : "no estimate: there were no GPU samples, so the GPU time "
                                   "lost is not known");
  // The replay moves what the cause's state held of the phase, nothing else.
  if (replay.cause_gpu_s >= 0 && phase->lost_gpu_s > 0)
    phase->moved_share = std::clamp(replay.cause_gpu_s / phase->lost_gpu_s, 0.0, 1.0);
  const std::string moved_note =
      phase->moved_share < 0.995
          ? fmt::format(
                "the fix moves only the {} of the {}'s idle time the cause held; the rest "
                "waits as it did",
                Pct(phase->moved_share), phase->name)
          : "";
  auto with_note = [&](FixEstimate e) {
    // A replay that wins nothing back (the next limit, such as the nodes' own NICs, holds the
    // job) is no figure: printed, it would contradict the diagnosis.
    if (e.available && e.idle_fraction_after >= e.idle_fraction_before - 0.005)
      return Unavailable(
          "no figure: lifting the cause alone wins no GPU time back in this replay (the next "
          "limit, such as the nodes' own NICs or the job's share of a shared account, holds "
          "it)");
    if (e.available && !moved_note.empty()) e.assumptions.insert(e.assumptions.begin(), moved_note);
    return e;
  };
  return with_note(EstimateFixOfPhase(cause, facts, gpu, replay, &*phase));
}

FixEstimate EstimateCatchUp(const FactSet& facts, const GpuTimeLost& gpu, const std::string& node,
                            double slow_s, double others_s) {
  auto phase = DataPhase(facts, gpu);
  if (!phase || slow_s <= 0 || others_s <= 0 || others_s >= slow_s)
    return Unavailable("no estimate: the straggler's download time is not known");
  // The cluster's data phase lasts as long as its slowest node's download.
  phase->wall_s = std::max(phase->wall_s, slow_s);
  FixEstimate e = Finish(facts, gpu, *phase, slow_s / others_s,
                         fmt::format("{} at the other nodes' pace", node));
  e.assumptions = {fmt::format("{}'s download takes the other nodes' median ({} instead of {})",
                               node, FormatSeconds(others_s), FormatSeconds(slow_s)),
                   "the other nodes' GPUs stop waiting for it; nothing else changes"};
  return e;
}

}  // namespace feedcheck::diagnosis
