#include "probes/nic_info.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace feedcheck {

namespace fs = std::filesystem;

namespace {

std::string ReadLine(const std::string& path) {
  std::ifstream in(path);
  if (!in) return {};
  std::string s;
  std::getline(in, s);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

std::optional<long> ReadLong(const std::string& path) {
  std::string s = ReadLine(path);
  if (s.empty()) return std::nullopt;
  try {
    size_t used = 0;
    long v = std::stol(s, &used);
    if (used != s.size()) return std::nullopt;
    return v;
  } catch (...) {
    return std::nullopt;
  }
}

std::optional<uint32_t> ParseHex32(std::string_view s) {
  if (s.empty() || s.size() > 8) return std::nullopt;
  uint32_t v = 0;
  for (char c : s) {
    int d;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      d = c - 'A' + 10;
    else
      return std::nullopt;
    v = v << 4 | static_cast<uint32_t>(d);
  }
  return v;
}

// /proc/net/route prints addresses as the raw (network-order) u32 in the host's byte order; on
// little-endian machines 0100A8C0 is 192.168.0.1.
uint32_t FromProcHex(uint32_t raw) {
  return (raw & 0xff) << 24 | (raw >> 8 & 0xff) << 16 | (raw >> 16 & 0xff) << 8 | raw >> 24;
}

int PrefixLength(uint32_t mask) {
  int n = 0;
  while (mask & 0x80000000u) {
    ++n;
    mask <<= 1;
  }
  return n;
}

std::string DriverOf(const std::string& sys_root, const std::string& interface) {
  std::error_code ec;
  fs::path link = fs::path(sys_root + "/sys/class/net") / interface / "device" / "driver";
  fs::path target = fs::read_symlink(link, ec);
  if (ec) return {};
  return target.filename().string();
}

std::optional<double> LinkGbps(const std::string& sys_root, const std::string& interface) {
  // speed is in Mbit/s; virtual NICs report -1 or fail the read with EINVAL.
  auto mbps = ReadLong(sys_root + "/sys/class/net/" + interface + "/speed");
  if (!mbps || *mbps <= 0) return std::nullopt;
  return static_cast<double>(*mbps) / 1000.0;
}

bool IsMellanox(const std::string& driver) {
  return driver == "mlx4_core" || driver == "mlx5_core" || driver == "mlx4_en" || driver == "mana";
}

}  // namespace

std::optional<uint32_t> ParseIpv4(std::string_view text) {
  uint32_t out = 0;
  int parts = 0;
  size_t i = 0;
  while (parts < 4) {
    if (i >= text.size() || text[i] < '0' || text[i] > '9') return std::nullopt;
    uint32_t v = 0;
    size_t digits = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && digits < 4) {
      v = v * 10 + static_cast<uint32_t>(text[i] - '0');
      ++i;
      ++digits;
    }
    if (v > 255 || digits > 3) return std::nullopt;
    out = out << 8 | v;
    ++parts;
    if (parts < 4) {
      if (i >= text.size() || text[i] != '.') return std::nullopt;
      ++i;
    }
  }
  if (i != text.size()) return std::nullopt;
  return out;
}

std::vector<RouteEntry> ParseRouteTable(std::string_view text) {
  std::vector<RouteEntry> out;
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string iface, dest, gw, flags, refcnt, use, metric, mask;
    if (!(row >> iface >> dest >> gw >> flags >> refcnt >> use >> metric >> mask)) continue;
    auto d = ParseHex32(dest), g = ParseHex32(gw), m = ParseHex32(mask), f = ParseHex32(flags);
    if (!d || !g || !m || !f) continue;  // the header row lands here
    RouteEntry e;
    e.interface = iface;
    e.destination = FromProcHex(*d);
    e.gateway = FromProcHex(*g);
    e.mask = FromProcHex(*m);
    try {
      e.metric = std::stoi(metric);
    } catch (...) {
      continue;
    }
    e.up = (*f & 0x1) != 0;  // RTF_UP
    out.push_back(e);
  }
  return out;
}

std::string RouteInterfaceFor(const std::vector<RouteEntry>& routes, uint32_t ipv4) {
  const RouteEntry* best = nullptr;
  for (const auto& r : routes) {
    if (!r.up || (ipv4 & r.mask) != (r.destination & r.mask)) continue;
    if (!best || PrefixLength(r.mask) > PrefixLength(best->mask) ||
        (PrefixLength(r.mask) == PrefixLength(best->mask) && r.metric < best->metric))
      best = &r;
  }
  return best ? best->interface : std::string();
}

NicInfo DescribeInterface(const std::string& interface, const std::string& sys_root) {
  NicInfo info;
  info.interface = interface;
  std::string base = sys_root + "/sys/class/net/" + interface;
  info.link_gbps = LinkGbps(sys_root, interface);
  info.driver = DriverOf(sys_root, interface);
  if (auto mtu = ReadLong(base + "/mtu")) info.mtu = static_cast<int>(*mtu);
  info.operstate = ReadLine(base + "/operstate");
  if (IsMellanox(info.driver)) {
    // Bare-metal or SR-IOV without the synthetic NIC: the interface is the VF itself.
    info.accelerated = true;
    info.vf_interface = interface;
    info.vf_driver = info.driver;
    info.vf_link_gbps = info.link_gbps;
    return info;
  }
  // Azure accelerated networking: the Mellanox VF is enslaved to the hv_netvsc interface, so it
  // shows up as <vf>/master -> ../<interface> (and <interface>/lower_<vf>).
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(sys_root + "/sys/class/net", ec)) {
    std::string name = e.path().filename().string();
    if (name == interface) continue;
    std::error_code ec2;
    fs::path master = fs::read_symlink(e.path() / "master", ec2);
    bool enslaved = !ec2 && master.filename().string() == interface;
    bool lower = fs::exists(fs::path(base) / ("lower_" + name), ec2);
    if (!enslaved && !lower) continue;
    std::string driver = DriverOf(sys_root, name);
    if (!IsMellanox(driver)) continue;
    info.accelerated = true;
    info.vf_interface = name;
    info.vf_driver = driver;
    info.vf_link_gbps = LinkGbps(sys_root, name);
    break;
  }
  return info;
}

}  // namespace feedcheck
