#include "core/account_plan.h"

#include <catch2/catch.hpp>

#include "core/egress_calculator.h"

using namespace feedcheck;

namespace {
bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE("a node split when whole nodes fit an account", "[core][account_plan]") {
  AccountPlan p;
  REQUIRE(PlanAccounts(12, 24, 200, &p));
  CHECK(p.accounts == 2);
  CHECK(p.full_rate_nodes == 8);
  CHECK_FALSE(p.striped);
  CHECK(NodeSplitText(p) == "nodes 0-5 -> account 1, nodes 6-11 -> account 2");
  // The same figures as `egress` for the same inputs.
  EgressResult e;
  std::string error;
  REQUIRE(ComputeEgress({24, 200, 12}, &e, &error));
  CHECK(p.accounts == e.accounts_needed);
  CHECK(p.full_rate_nodes == e.full_rate_nodes);
  CHECK(AccountPlanSummary(p) == "replicate the data; each account feeds up to 8 nodes");
}

TEST_CASE("the node index follows the job's distribution", "[core][account_plan]") {
  AccountPlan p;
  REQUIRE(PlanAccounts(12, 24, 200, &p));
  std::string torch = DescribeAccountPlan(p, {"pytorch", 8});
  CHECK(Has(torch, "account = int(os.environ[\"NODE_RANK\"]) * 2 // 12"));
  CHECK(Has(torch, "nodes 0-5 -> account 1, nodes 6-11 -> account 2"));
  CHECK_FALSE(Has(torch, "from RANK"));
  std::string mpi = DescribeAccountPlan(p, {"mpi", 8});
  CHECK(Has(mpi, "int(os.environ[\"OMPI_COMM_WORLD_RANK\"]) // 8 * 2 // 12"));
  std::string mpi1 = DescribeAccountPlan(p, {"mpi", 1});
  CHECK(Has(mpi1, "int(os.environ[\"OMPI_COMM_WORLD_RANK\"]) * 2 // 12"));
  std::string unknown = DescribeAccountPlan(p, {"unknown", 0});
  CHECK(Has(unknown, "NODE_RANK under PyTorch distribution"));
  CHECK(Has(unknown, "process_count_per_instance"));
}

TEST_CASE("one node's NIC above an account's egress: stripe", "[core][account_plan]") {
  // One ND96isr_H100_v5 (80 Gbit/s) on a 50 Gbit/s account.
  AccountPlan p;
  REQUIRE(PlanAccounts(1, 80, 50, &p));
  CHECK(p.full_rate_nodes == 0);
  CHECK(p.accounts == 2);
  CHECK(p.accounts_per_node == 2);
  CHECK(p.striped);
  CHECK(NodeSplitText(p).empty());
  std::string text = DescribeAccountPlan(p, {"pytorch", 8});
  CHECK(Has(text, "1 node x 80.0 Gbit/s"));
  CHECK_FALSE(Has(text, "1 nodes"));
  CHECK_FALSE(Has(text, "feeds 0 nodes"));
  CHECK(Has(text, "cannot feed even one node at full rate (each node needs 2 accounts)"));
  CHECK(Has(text, "put shard s in account (s mod 2) + 1"));
  CHECK_FALSE(Has(text, "rank 0 -> account"));
  CHECK(AccountPlanSummary(p) == "stripe shards over all 2 accounts: one node needs 2");
}

TEST_CASE("more accounts than nodes", "[core][account_plan]") {
  AccountPlan p;
  REQUIRE(PlanAccounts(16, 80, 50, &p));
  CHECK(p.accounts == 26);  // ceil(1280 / 50)
  CHECK(p.striped);
  std::string text = DescribeAccountPlan(p, {"", 0});
  CHECK(Has(text, "(s mod 26) + 1"));
  CHECK(Has(text, "more accounts (26) than nodes (16)"));
  CHECK(p.per_account_gbps <= 50 + 1e-9);
}

TEST_CASE("blocks of whole nodes that would overload an account: stripe", "[core][account_plan]") {
  // 5 x 30 Gbit/s on 50: 3 accounts by bandwidth, but a block of 2 nodes is 60 > 50.
  AccountPlan p;
  REQUIRE(PlanAccounts(5, 30, 50, &p));
  CHECK(p.accounts == 3);
  CHECK(p.full_rate_nodes == 1);
  CHECK(p.striped);
  CHECK(p.per_account_gbps == Approx(50));
  std::string text = DescribeAccountPlan(p, {"pytorch", 1});
  CHECK(Has(text, "one account feeds 1 node at full rate"));
}

TEST_CASE("bad inputs are refused", "[core][account_plan]") {
  AccountPlan p;
  CHECK_FALSE(PlanAccounts(0, 24, 200, &p));
  CHECK_FALSE(PlanAccounts(4, 0, 200, &p));
  CHECK_FALSE(PlanAccounts(4, 24, -1, &p));
}

TEST_CASE("a long node split names its first and last ranges", "[core][account_plan]") {
  AccountPlan p;
  REQUIRE(PlanAccounts(2400, 20, 200, &p));
  CHECK(p.accounts == 240);
  CHECK_FALSE(p.striped);
  CHECK(NodeSplitText(p) ==
        "nodes 0-9 -> account 1, nodes 10-19 -> account 2, ..., nodes 2390-2399 -> account 240");
  // Past the 250 accounts a subscription may have in one region: said, in both texts.
  REQUIRE(PlanAccounts(100000, 24, 200, &p));
  CHECK(p.accounts == 12000);
  CHECK(AccountPlanSummary(p).find("more than the 250") != std::string::npos);
  CHECK(DescribeAccountPlan(p, {}).find("more than the 250 storage accounts") != std::string::npos);
}

// The request side: every account serves at most its egress and its request limit, and the
// plan's count is the larger of the two counts, with the limit that set it.
TEST_CASE("requests that need more accounts than egress set the count", "[core][account_plan]") {
  // 12 x 24 Gbit/s of 250 KB files: 144,000/s over 40,000 -> 4 accounts; bytes 288 / 200 -> 2.
  // One account feeds floor(40,000 / 12,000) = 3 nodes: blocks of 3, a node split.
  AccountPlan p;
  REQUIRE(PlanAccounts(12, 24, 200, &p, {250000, 40000}));
  CHECK(p.egress_accounts == 2);
  CHECK(p.request_accounts == 4);
  CHECK(p.accounts == 4);
  CHECK(p.set_by == PlanLimit::kRequests);
  CHECK(p.full_rate_nodes == 3);
  CHECK(p.egress_full_rate_nodes == 8);
  CHECK_FALSE(p.striped);
  CHECK(NodeSplitText(p) ==
        "nodes 0-2 -> account 1, nodes 3-5 -> account 2, nodes 6-8 -> account 3, nodes 9-11 -> "
        "account 4");
  CHECK(AccountPlanSummary(p) == "replicate the data; each account feeds up to 3 nodes");
  const std::string text = DescribeAccountPlan(p, {"pytorch", 8});
  CHECK(Has(text, "one account feeds 8 nodes at full rate"));  // the egress sentence stays
  CHECK(Has(text, "the requests need 4 accounts (at 40,000/s each) and the bytes need 2"));
  CHECK(Has(text, "a replication plan needs 4, the count set by the request limit"));
  CHECK(Has(text, "for a higher request limit, or replicate the data across 4 storage accounts"));
  CHECK(Has(text, "account = int(os.environ[\"NODE_RANK\"]) * 4 // 12"));
  CHECK_FALSE(Has(text, "egress limit increase"));
}

TEST_CASE("egress that needs more accounts than requests sets the count", "[core][account_plan]") {
  // 2 MB files: 18,000/s at full rate, one account's worth; the bytes need 2.
  AccountPlan p;
  REQUIRE(PlanAccounts(12, 24, 200, &p, {2e6, 40000}));
  CHECK(p.request_accounts == 1);
  CHECK(p.accounts == 2);
  CHECK(p.set_by == PlanLimit::kEgress);
  CHECK(NodeSplitText(p) == "nodes 0-5 -> account 1, nodes 6-11 -> account 2");
  const std::string text = DescribeAccountPlan(p, {});
  CHECK(Has(text, "a replication plan needs 2, the count set by the egress limit"));
  CHECK(Has(text, "Ask Azure Support (portal support request) for an egress limit increase"));
  CHECK_FALSE(Has(text, "Pack the files"));
  // Without the request side the plan is the egress plan, and says nothing of requests.
  AccountPlan bytes_only;
  REQUIRE(PlanAccounts(12, 24, 200, &bytes_only));
  CHECK(bytes_only.request_accounts == 0);
  CHECK_FALSE(Has(DescribeAccountPlan(bytes_only, {}), "count set by"));
}

TEST_CASE("both limits alike, and a node over the request limit alone", "[core][account_plan]") {
  AccountPlan p;
  // 500 KB: 72,000/s -> 2 accounts, the bytes 2.
  REQUIRE(PlanAccounts(12, 24, 200, &p, {500000, 40000}));
  CHECK(p.set_by == PlanLimit::kBoth);
  CHECK(Has(DescribeAccountPlan(p, {}), "the count set by both limits alike"));
  CHECK(Has(DescribeAccountPlan(p, {}), "for higher egress and request limits"));
  // 2 x 20 Gbit/s of 16 KB: one node alone takes 156,250/s, 4 accounts' worth: stripe over 8.
  REQUIRE(PlanAccounts(2, 20, 200, &p, {16000, 40000}));
  CHECK(p.accounts == 8);
  CHECK(p.accounts_per_node == 4);
  CHECK(p.full_rate_nodes == 0);
  CHECK(p.striped);
  CHECK(Has(DescribeAccountPlan(p, {}), "stripe the data across 8 storage accounts"));
}

TEST_CASE("a request-set plan names shares and volumes", "[core][account_plan]") {
  AccountPlan p;
  REQUIRE(PlanAccounts(12, 24, 200, &p, {250000, 40000}));
  const std::string files = DescribeAccountPlan(p, {}, "azure_files_premium");
  CHECK(Has(files, "the requests need 4 file shares"));
  CHECK(
      Has(files, "provision the share for more IOPS, or replicate the data across 4 file shares"));
  CHECK(Has(files, "share = node_index * 4 // 12"));
  CHECK_FALSE(Has(files, "storage account"));
  const std::string netapp = DescribeAccountPlan(p, {}, "netapp_files");
  CHECK(Has(netapp, "the requests need 4 volumes"));
  CHECK(Has(netapp, "Pack the files into larger shards, or replicate the data across 4 volumes"));
  CHECK_FALSE(Has(netapp, "storage account"));
}
