#include "core/account_plan.h"

#include <fmt/format.h>

#include <cmath>

#include "core/egress_calculator.h"
#include "core/units.h"

namespace feedcheck {
namespace {

std::string Gbps(double gbps) { return FormatValue(gbps, Unit::kGbps); }

// "Scalability and performance targets for standard storage accounts": a subscription may have
// 250 storage accounts per region by default, 500 on request. A plan past that cannot be built
// in one subscription and region.
constexpr int kAccountsPerRegion = 250;

std::string TooManyAccounts(const AccountPlan& p) {
  if (p.accounts <= kAccountsPerRegion) return "";
  return fmt::format(
      " {} accounts are more than the {} storage accounts a subscription may have in one region "
      "(500 on request; \"Scalability and performance targets for standard storage accounts\", "
      "https://learn.microsoft.com/azure/storage/common/scalability-targets-standard-account): "
      "at this scale ask for a higher egress limit first, and cache the data on the nodes' local "
      "disks where it fits.",
      FormatGrouped(p.accounts, 6), kAccountsPerRegion);
}

std::string Count(long n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

// The expression a process uses to find its node index, and what it is, for the job's
// distribution settings.
std::string NodeIndexText(const NodeIndexSource& index, int accounts, int nodes,
                          const std::string& unit) {
  const std::string pick = fmt::format(" * {} // {}", accounts, nodes);
  if (index.distribution == "pytorch")
    return fmt::format(
        "its node index, NODE_RANK (set on every node by the job's PyTorch distribution; RANK "
        "counts every process): {} = int(os.environ[\"NODE_RANK\"]){}",
        unit, pick);
  if (index.distribution == "mpi") {
    const int p = index.processes_per_node;
    if (p == 1)
      return fmt::format(
          "its node index, which with process_count_per_instance: 1 is the MPI rank: {} = "
          "int(os.environ[\"OMPI_COMM_WORLD_RANK\"]){}",
          unit, pick);
    if (p > 1)
      return fmt::format(
          "its node index, the MPI rank divided by process_count_per_instance ({}): {} = "
          "int(os.environ[\"OMPI_COMM_WORLD_RANK\"]) // {}{}",
          p, unit, p, pick);
    return fmt::format(
        "its node index, the MPI rank divided by process_count_per_instance: {} = "
        "int(os.environ[\"OMPI_COMM_WORLD_RANK\"]) // process_count_per_instance{}",
        unit, pick);
  }
  return fmt::format(
      "its node index (not the process rank, which counts every process): NODE_RANK under "
      "PyTorch distribution, else the rank divided by process_count_per_instance; {} = "
      "node_index{}",
      unit, pick);
}

}  // namespace

bool PlanAccounts(int nodes, double nic_gbps, double account_egress_gbps, AccountPlan* out,
                  const RequestLimit& requests) {
  if (nodes < 1 || !(nic_gbps > 0) || !(account_egress_gbps > 0) || !std::isfinite(nic_gbps) ||
      !std::isfinite(account_egress_gbps))
    return false;
  // The same arithmetic (and rounding) as `feedcheck egress`: one answer for one input.
  EgressInput input{nic_gbps, account_egress_gbps, nodes};
  EgressResult egress;
  std::string error;
  if (!ComputeEgress(input, &egress, &error)) return false;
  AccountPlan p;
  p.nodes = nodes;
  p.nic_gbps = nic_gbps;
  p.account_egress_gbps = account_egress_gbps;
  p.full_rate_nodes = p.egress_full_rate_nodes = egress.full_rate_nodes;
  p.accounts = p.egress_accounts = std::max(1, egress.accounts_needed);
  const double demand = nodes * nic_gbps;
  p.accounts_per_node =
      std::max(1, static_cast<int>(std::ceil(nic_gbps / account_egress_gbps - 1e-9)));
  // Requests per second of one node at full NIC rate: its bytes per second over the file size.
  double node_rps = 0;
  const bool weigh = requests.median_file_bytes > 0 && requests.requests_per_s > 0 &&
                     std::isfinite(requests.median_file_bytes) &&
                     std::isfinite(requests.requests_per_s);
  if (weigh) {
    node_rps = nic_gbps * 1e9 / 8 / requests.median_file_bytes;
    p.median_file_bytes = requests.median_file_bytes;
    p.request_limit_per_s = requests.requests_per_s;
    p.requests_per_s = nodes * node_rps;
    const double ratio = p.requests_per_s / requests.requests_per_s;
    if (!(ratio < 1e9)) return false;  // beyond any plan; also refuses NaN
    p.request_accounts = std::max(1, static_cast<int>(std::ceil(ratio - 1e-9)));
    p.set_by = p.request_accounts > p.egress_accounts    ? PlanLimit::kRequests
               : p.request_accounts == p.egress_accounts ? PlanLimit::kBoth
                                                         : PlanLimit::kEgress;
    p.accounts = std::max(p.accounts, p.request_accounts);
    const double per_node = node_rps / requests.requests_per_s;
    p.full_rate_nodes =
        std::min(p.full_rate_nodes, static_cast<int>(std::floor(1 / per_node + 1e-9)));
    p.accounts_per_node =
        std::max(p.accounts_per_node, static_cast<int>(std::ceil(per_node - 1e-9)));
  }
  const int block = (nodes + p.accounts - 1) / p.accounts;
  p.striped = p.full_rate_nodes == 0 || block * nic_gbps > account_egress_gbps * (1 + 1e-9) ||
              (weigh && block * node_rps > requests.requests_per_s * (1 + 1e-9));
  p.per_account_gbps = p.striped ? demand / p.accounts : std::min(block * nic_gbps, demand);
  *out = p;
  return true;
}

std::string NodeSplitText(const AccountPlan& plan, const std::string& unit) {
  if (plan.striped) return "";
  std::string out;
  long first = 0;
  const long nodes = plan.nodes, accounts = plan.accounts;
  // Past a handful of accounts the ranges are a pattern: the first two and the last, with the
  // formula beside them, say it; all 240 would bury the advice.
  const long kShown = 8;
  for (long a = 0; a < accounts; ++a) {
    // Nodes n with floor(n * accounts / nodes) == a.
    long last = ((a + 1) * nodes + accounts - 1) / accounts - 1;
    const bool shown = accounts <= kShown || a < 2 || a == accounts - 1;
    if (shown) {
      if (!out.empty()) out += ", ";
      if (accounts > kShown && a == accounts - 1) out += "..., ";
      out += first == last ? fmt::format("node {} -> {} {}", first, unit, a + 1)
                           : fmt::format("nodes {}-{} -> {} {}", first, last, unit, a + 1);
    }
    first = last + 1;
  }
  return out;
}

namespace {

// What one storage target is called, and how its limit is raised: a storage account (blob,
// ADLS Gen2) by a support request, an Azure Files share by provisioning, a NetApp Files volume
// by its service level and quota.
struct TargetWords {
  std::string one, many, raise;
  std::string plural;          ///< short plural, where the kind is already clear: "accounts"
  std::string unit;            ///< the name in the split formula: "account", "share", "volume"
  std::string raise_requests;  ///< how to ease the request limit, when it sets the count
  std::string raise_both;      ///< how to ease both, when the requests too need more than one
};

// A premium SSD file share's most: 10,340 MiB/s ("Azure Files scalability and performance
// targets"), in Gbit/s.
constexpr double kPremiumShareMaxGbps = 10340.0 * 1048576 * 8 / 1e9;

// Fewer, larger files carry the same bytes in fewer requests: the first answer to a request
// limit, whatever the storage.
constexpr char kPackShares[] = "Pack the files into larger shards, ";

TargetWords WordsFor(const std::string& kind, double egress_gbps) {
  if (kind.rfind("azure_files", 0) == 0) {
    // A share already at the most a share reaches cannot be provisioned higher.
    if (egress_gbps >= kPremiumShareMaxGbps * 0.999)
      return {"file share",
              "file shares",
              "The share is already at the most a premium share reaches (10,340 MiB/s): ",
              "file shares",
              "share",
              std::string(kPackShares) + "provision the share for more IOPS, or ",
              std::string(kPackShares) + "provision the share for more IOPS, or "};
    return {"file share",
            "file shares",
            "Provision the share for more throughput (a premium share reaches 10,340 MiB/s at "
            "most), or ",
            "file shares",
            "share",
            std::string(kPackShares) + "provision the share for more IOPS, or ",
            std::string(kPackShares) + "provision the share for more throughput and IOPS, or "};
  }
  if (kind.rfind("netapp_files", 0) == 0)
    return {"volume",
            "volumes",
            "Raise the volume's service level or quota (its throughput scales with the "
            "provisioned TiB; a large volume reaches 12,800 MiB/s), or ",
            "volumes",
            "volume",
            std::string(kPackShares) + "or ",
            std::string(kPackShares) + "raise the volume's service level or quota, or "};
  return {"account",
          "storage accounts",
          "Ask Azure Support (portal support request) for an egress limit increase, or ",
          "accounts",
          "account",
          std::string(kPackShares) +
              "ask Azure Support (portal support request) for a higher request limit, or ",
          std::string(kPackShares) +
              "ask Azure Support (portal support request) for higher egress and request limits, "
              "or "};
}

}  // namespace

std::string DescribeAccountPlan(const AccountPlan& p, const NodeIndexSource& index,
                                const std::string& target_kind) {
  const TargetWords w = WordsFor(target_kind, p.account_egress_gbps);
  std::string out =
      fmt::format("{} x {} = {} {} the {}'s {} egress limit", Count(p.nodes, "node", "nodes"),
                  Gbps(p.nic_gbps), Gbps(p.nodes * p.nic_gbps),
                  p.nodes * p.nic_gbps > p.account_egress_gbps ? "exceeds" : "is within", w.one,
                  Gbps(p.account_egress_gbps));
  if (p.egress_full_rate_nodes == 0)
    out += fmt::format(
        ": one node's NIC alone is more than one {} serves, so one {} cannot feed even one node "
        "at full rate (each node needs {} {})",
        w.one, w.one,
        std::max(1, static_cast<int>(std::ceil(p.nic_gbps / p.account_egress_gbps - 1e-9))),
        w.plural);
  else
    out += fmt::format(": one {} feeds {} at full rate", w.one,
                       Count(p.egress_full_rate_nodes, "node", "nodes"));
  const std::string share = Gbps(std::min(p.nic_gbps, p.account_egress_gbps / p.nodes));
  out += p.nodes == 1 ? fmt::format(", and the node gets about {}.", share)
                      : fmt::format(", and at {} nodes each gets about {}.", p.nodes, share);
  if (p.request_accounts > 0) {
    // Both limits: the count is the larger, and the advice says which one set it.
    const char* by = p.set_by == PlanLimit::kRequests
                         ? "the request limit (more than egress alone asks for)"
                     : p.set_by == PlanLimit::kBoth ? "both limits alike"
                                                    : "the egress limit";
    out += fmt::format(
        " At full NIC rate, files of {} take {}: the requests need {} {} (at {} each) and the "
        "bytes need {}, so a replication plan needs {}, the count set by {}.",
        FormatValue(p.median_file_bytes, Unit::kBytes),
        FormatValue(std::round(p.requests_per_s), Unit::kPerSecond), p.request_accounts,
        p.request_accounts == 1 ? w.one : w.plural,
        FormatValue(p.request_limit_per_s, Unit::kPerSecond), p.egress_accounts, p.accounts, by);
  }
  out += " " + (p.request_accounts <= 1            ? w.raise
                : p.set_by == PlanLimit::kRequests ? w.raise_requests
                                                   : w.raise_both);
  const std::string too_many = w.one == "account" ? TooManyAccounts(p) : "";
  if (!p.striped) {
    out += fmt::format(
        "replicate the data across {} {}, pass one input per {}, and let each node pick its {} "
        "from {}: {}.",
        p.accounts, w.many, w.one, w.one, NodeIndexText(index, p.accounts, p.nodes, w.unit),
        NodeSplitText(p, w.unit));
    return out + too_many;
  }
  out += fmt::format(
      "stripe the data across {} {} so that every node reads from several of them: put shard s "
      "in {} (s mod {}) + 1, pass every {} as an input, and let each node read its shards from "
      "{} (about {} from each {} per node; each {} serves about {} of its {}).",
      p.accounts, w.many, w.one, p.accounts, w.one,
      p.accounts == 2 ? std::string("both") : fmt::format("all {}", p.accounts),
      Gbps(p.nic_gbps / p.accounts), w.one, w.one, Gbps(p.per_account_gbps),
      Gbps(p.account_egress_gbps));
  if (p.accounts > p.nodes && p.nodes > 1)
    out += fmt::format(
        " There are more {} ({}) than nodes ({}): a split of whole nodes between them cannot "
        "reach full rate.",
        w.plural, p.accounts, p.nodes);
  return out + too_many;
}

std::string AccountPlanSummary(const AccountPlan& p, const std::string& target_kind) {
  const TargetWords w = WordsFor(target_kind, p.account_egress_gbps);
  if (w.one != "account") {
    if (p.accounts <= 1) return fmt::format("one {} is enough", w.one);
    if (!p.striped)
      return fmt::format("replicate the data; each {} feeds up to {}", w.one,
                         Count(p.full_rate_nodes, "node", "nodes"));
    return fmt::format("stripe shards over all {} {}", p.accounts, w.plural);
  }
  if (p.accounts <= 1) return "one account is enough";
  if (p.accounts > kAccountsPerRegion)
    return fmt::format(
        "{} accounts, more than the {} a subscription may have in one region (500 on request): "
        "ask for a higher egress limit first",
        FormatGrouped(p.accounts, 6), kAccountsPerRegion);
  if (!p.striped)
    return fmt::format("replicate the data; each account feeds up to {}",
                       Count(p.full_rate_nodes, "node", "nodes"));
  if (p.full_rate_nodes == 0)
    return fmt::format("stripe shards over all {} accounts: one node needs {}", p.accounts,
                       p.accounts_per_node);
  return fmt::format("stripe shards over all {} accounts (whole-node blocks would overload one)",
                     p.accounts);
}

}  // namespace feedcheck
