// Which network interface carries traffic to a target, and what it is: link speed, driver, MTU,
// and whether an accelerated-networking VF (a Mellanox mlx4/mlx5 device enslaved to hv_netvsc)
// backs it. /proc and /sys come from an injectable root so tests use fixture trees.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace feedcheck {

/// One row of /proc/net/route (IPv4), addresses in host byte order.
struct RouteEntry {
  std::string interface;
  uint32_t destination = 0;
  uint32_t gateway = 0;
  uint32_t mask = 0;
  int metric = 0;
  bool up = false;
};

/// Parses /proc/net/route; the header and malformed rows are skipped.
std::vector<RouteEntry> ParseRouteTable(std::string_view text);
/// The interface the kernel would pick for `ipv4` (host byte order): longest prefix, then lowest
/// metric. Empty when no route matches.
std::string RouteInterfaceFor(const std::vector<RouteEntry>& routes, uint32_t ipv4);
/// "10.1.2.3" -> host-order address.
std::optional<uint32_t> ParseIpv4(std::string_view text);

struct NicInfo {
  std::string interface;
  std::optional<double> link_gbps;  ///< unset when sysfs says -1 or nothing (virtual NICs)
  std::string driver;               ///< "hv_netvsc", "mlx5_core", "virtio_net", "" (loopback)
  std::optional<int> mtu;
  bool accelerated = false;  ///< an SR-IOV VF of a Mellanox NIC carries the traffic
  std::string vf_interface;  ///< "enP12345s1"
  std::string vf_driver;     ///< "mlx5_core"
  std::optional<double> vf_link_gbps;
  std::string operstate;  ///< "up", "down", "unknown"
};

/// Reads /sys/class/net/<interface> under `sys_root` ("" = this machine).
NicInfo DescribeInterface(const std::string& interface, const std::string& sys_root);

/// Finds the interface that routes to `host` on this machine: resolves it, connects a UDP socket
/// (which sends nothing) and matches the local address to an interface; falls back to the route
/// table under `proc_root`. An empty host means the default route. Sets `error` on failure.
std::string InterfaceForHost(const std::string& host, const std::string& proc_root,
                             std::string* error);

}  // namespace feedcheck
