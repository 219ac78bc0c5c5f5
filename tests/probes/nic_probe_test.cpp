#include "probes/nic_probe.h"

#include <catch2/catch.hpp>

#include "fixture_tree.h"
#include "probes/nic_info.h"

using namespace feedcheck;
using feedcheck::testing::FixtureTree;

namespace {

// /proc/net/route as a little-endian Linux prints it: default via 10.0.0.1 on eth0, 10.0.0.0/24 on
// eth0, 10.200.0.0/16 on ib0 with a worse metric than a /24 inside it on eth1.
const char* kRoutes =
    "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
    "eth0\t00000000\t0100000A\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
    "eth0\t0000000A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
    "ib0\t0000C80A\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0\n"
    "eth1\t0002C80A\t00000000\t0001\t0\t0\t5\t00FFFFFF\t0\t0\t0\n"
    "eth2\t0003C80A\t00000000\t0000\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"  // not RTF_UP
    "broken row\n";

void AzureNode(const FixtureTree& t, bool with_vf) {
  t.Write("sys/class/net/eth0/speed", "50000\n");
  t.Write("sys/class/net/eth0/mtu", "1500\n");
  t.Write("sys/class/net/eth0/operstate", "up\n");
  t.Link("sys/class/net/eth0/device/driver", "../../../../bus/vmbus/drivers/hv_netvsc");
  t.Write("sys/class/net/lo/mtu", "65536\n");
  if (with_vf) {
    t.Write("sys/class/net/enP4732s1/speed", "100000\n");
    t.Write("sys/class/net/enP4732s1/mtu", "1500\n");
    t.Link("sys/class/net/enP4732s1/master", "../eth0");
    t.Link("sys/class/net/enP4732s1/device/driver", "../../../bus/pci/drivers/mlx5_core");
  }
}

}  // namespace

TEST_CASE("route table rows decode little-endian hex", "[probes][nic]") {
  auto routes = ParseRouteTable(kRoutes);
  REQUIRE(routes.size() == 5);
  CHECK(routes[0].gateway == *ParseIpv4("10.0.0.1"));
  CHECK(routes[1].destination == *ParseIpv4("10.0.0.0"));
  CHECK(routes[1].mask == *ParseIpv4("255.255.255.0"));
  CHECK(routes[0].metric == 100);
  CHECK_FALSE(routes[4].up);
}

TEST_CASE("the longest matching prefix picks the interface", "[probes][nic]") {
  auto routes = ParseRouteTable(kRoutes);
  CHECK(RouteInterfaceFor(routes, *ParseIpv4("10.0.0.7")) == "eth0");
  CHECK(RouteInterfaceFor(routes, *ParseIpv4("10.200.2.9")) == "eth1");
  CHECK(RouteInterfaceFor(routes, *ParseIpv4("10.200.9.9")) == "ib0");
  CHECK(RouteInterfaceFor(routes, *ParseIpv4("10.200.3.1")) == "ib0");   // eth2 route is down
  CHECK(RouteInterfaceFor(routes, *ParseIpv4("52.239.1.1")) == "eth0");  // default
  CHECK(RouteInterfaceFor({}, *ParseIpv4("1.2.3.4")).empty());
}

TEST_CASE("IPv4 text parses strictly", "[probes][nic]") {
  CHECK(ParseIpv4("192.168.0.1") == std::optional<uint32_t>(0xC0A80001u));
  CHECK_FALSE(ParseIpv4("256.1.1.1"));
  CHECK_FALSE(ParseIpv4("1.2.3"));
  CHECK_FALSE(ParseIpv4("1.2.3.4.5"));
  CHECK_FALSE(ParseIpv4("1.2.3.x"));
  CHECK_FALSE(ParseIpv4(""));
}

TEST_CASE("an accelerated-networking VF enslaved to hv_netvsc is found", "[probes][nic]") {
  FixtureTree t;
  AzureNode(t, true);
  NicInfo nic = DescribeInterface("eth0", t.root());
  CHECK(nic.driver == "hv_netvsc");
  CHECK(nic.mtu == std::optional<int>(1500));
  CHECK(nic.link_gbps == std::optional<double>(50.0));
  CHECK(nic.accelerated);
  CHECK(nic.vf_interface == "enP4732s1");
  CHECK(nic.vf_driver == "mlx5_core");
  CHECK(nic.vf_link_gbps == std::optional<double>(100.0));
}

TEST_CASE("nic probe facts on an Azure node without accelerated networking", "[probes][nic]") {
  FixtureTree t;
  AzureNode(t, false);
  t.Write("proc/net/route", kRoutes);
  NicProbeOptions o;
  o.root = t.root();
  o.expected_gbps = 80;
  o.expected_source = "knowledge base: vm_sizes.yaml:3 Standard_ND96isr_H100_v5";
  auto r = RunNicProbe(o);  // empty host: default route from the fixture's route table
  REQUIRE(r.status == ProbeStatus::kOk);
  const FactSet& f = r.evidence.facts;
  CHECK(f.Text("probe.nic.interface") == std::optional<std::string>("eth0"));
  CHECK(f.Bool("probe.nic.accelerated") == std::optional<bool>(false));
  CHECK(f.Number("probe.nic.link_gbps") == std::optional<double>(50.0));
  CHECK(f.Number("probe.nic.expected_gbps") == std::optional<double>(80.0));
  CHECK(f.Find("probe.nic.expected_gbps")->provenance.origin == FactOrigin::kKnowledge);
  std::vector<std::string> codes;
  for (const auto& d : r.evidence.diagnostics.kept()) codes.push_back(d.code);
  CHECK(codes == std::vector<std::string>{"P502", "P503"});
}

TEST_CASE("a virtual NIC without a speed gives no link fact but a note", "[probes][nic]") {
  FixtureTree t;
  t.Write("sys/class/net/ens5/speed", "-1\n");
  t.Write("sys/class/net/ens5/mtu", "9001\n");
  t.Link("sys/class/net/ens5/device/driver", "../../../bus/virtio/drivers/virtio_net");
  NicProbeOptions o;
  o.root = t.root();
  o.interface = "ens5";
  auto r = RunNicProbe(o);
  CHECK_FALSE(r.evidence.facts.Has("probe.nic.link_gbps"));
  CHECK(r.evidence.facts.Number("probe.nic.mtu") == std::optional<double>(9001));
  CHECK(r.evidence.facts.Text("probe.nic.driver") == std::optional<std::string>("virtio_net"));
  REQUIRE(r.evidence.diagnostics.kept().size() == 1);
  CHECK(r.evidence.diagnostics.kept()[0].code == "P501");
}

TEST_CASE("on this machine loopback routes to lo", "[probes][nic]") {
  std::string error;
  CHECK(InterfaceForHost("127.0.0.1", "", &error) == "lo");
  auto r = RunNicProbe({"127.0.0.1", "", "", std::nullopt, ""});
  CHECK(r.evidence.facts.Text("probe.nic.interface") == std::optional<std::string>("lo"));
  CHECK(r.evidence.facts.Bool("probe.nic.accelerated") == std::optional<bool>(false));
}

TEST_CASE("no route to the target is a target error", "[probes][nic]") {
  FixtureTree t;
  t.Write("proc/net/route", "Iface\tDestination\tGateway\n");  // header only: no routes
  NicProbeOptions o;
  o.root = t.root();
  auto r = RunNicProbe(o);
  CHECK(r.status == ProbeStatus::kUnreachable);
  CHECK(r.message.find("no default route") != std::string::npos);
}
