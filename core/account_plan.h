// How to spread a cluster's reads over storage accounts when one account's egress is not
// enough: which nodes read which account (a split by node index), or, when a block of nodes
// would still overload an account (or one node's NIC alone exceeds it), how to stripe the
// shards so every node reads from several accounts. Pure arithmetic and the sentence that
// says it, shared by `egress` and the rules (the function account_plan()).
#pragma once

#include <string>

namespace feedcheck {

/// Which limit set an account plan's count.
enum class PlanLimit { kEgress, kRequests, kBoth };

struct AccountPlan {
  int nodes = 0;
  double nic_gbps = 0;
  double account_egress_gbps = 0;
  int full_rate_nodes = 0;    ///< floor(egress / NIC): nodes one account feeds at full rate
  int accounts = 1;           ///< ceil(nodes x NIC / egress), at least 1
  int accounts_per_node = 1;  ///< ceil(NIC / egress): accounts one node needs for its NIC rate
  /// True when whole nodes cannot be given to accounts: a node's NIC is above an account's
  /// egress, or the balanced blocks of ceil(nodes / accounts) nodes would exceed it. Then
  /// shard s lives in account (s mod accounts) + 1 and every node reads from all accounts.
  bool striped = false;
  double per_account_gbps = 0;     ///< what each account serves under the plan
  int egress_full_rate_nodes = 0;  ///< floor(egress / NIC), the egress limit alone
  int egress_accounts = 1;         ///< ceil(nodes x NIC / egress), at least 1
  /// The request side, when the plan weighs it (request_accounts > 0): requests per second at
  /// full NIC rate (nodes x NIC / median file) and ceil(that / the account's request limit).
  /// Once the data is spread so that the egress limit no longer caps the nodes, they read at
  /// full NIC rate: the bound min(nodes x NIC, egress) of the request-rate finding becomes
  /// nodes x NIC.
  int request_accounts = 0;
  double requests_per_s = 0;
  double request_limit_per_s = 0;
  double median_file_bytes = 0;
  PlanLimit set_by = PlanLimit::kEgress;  ///< accounts = max(egress_accounts, request_accounts)
};

/// The request side of a plan: files of `median_file_bytes` against a limit of
/// `requests_per_s` per account. Either 0 (or below): the requests are not weighed.
struct RequestLimit {
  double median_file_bytes = 0;
  double requests_per_s = 0;
};

/// Returns false when an input is not positive (nodes >= 1, rates > 0). With `requests`, the
/// count covers both limits: every account serves at most its egress and its request limit,
/// and `set_by` says which one set the count.
bool PlanAccounts(int nodes, double nic_gbps, double account_egress_gbps, AccountPlan* out,
                  const RequestLimit& requests = {});

/// How the job's processes learn their node index, from the job's `distribution`:
/// "pytorch" (NODE_RANK), "mpi" (OMPI_COMM_WORLD_RANK // process_count_per_instance), other or
/// unknown: both, with the rule. `processes_per_node` 0 means not known.
struct NodeIndexSource {
  std::string distribution;
  int processes_per_node = 0;
};

/// "nodes 0-5 -> account 1, nodes 6-11 -> account 2" (node n reads account
/// floor(n x accounts / nodes) + 1); "" when the plan is striped. Past 8 accounts, the first
/// two ranges, "...", and the last.
std::string NodeSplitText(const AccountPlan& plan, const std::string& unit = "account");

/// The whole advice for `nodes` nodes over one account: the load against the limit, what one
/// account feeds, and the plan with the node-index rule or the shard striping. `target_kind`
/// (account.kind) names the unit: storage accounts, Azure Files shares ("azure_files_*"),
/// NetApp Files volumes ("netapp_files"), each with how its limit is raised.
std::string DescribeAccountPlan(const AccountPlan& plan, const NodeIndexSource& index,
                                const std::string& target_kind = "");

/// One line for tables: "replicate the data; each account feeds up to 8 nodes" or "stripe the
/// data over all 26 accounts: one node needs 2".
std::string AccountPlanSummary(const AccountPlan& plan, const std::string& target_kind = "");

}  // namespace feedcheck
