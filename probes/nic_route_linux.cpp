// Linux part of nic_info.h: which interface a UDP socket to the target would use.
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "probes/nic_info.h"

namespace feedcheck {

namespace {

bool SameAddress(const sockaddr* a, const sockaddr_storage& b) {
  if (!a || a->sa_family != b.ss_family) return false;
  if (a->sa_family == AF_INET) {
    return reinterpret_cast<const sockaddr_in*>(a)->sin_addr.s_addr ==
           reinterpret_cast<const sockaddr_in*>(&b)->sin_addr.s_addr;
  }
  if (a->sa_family == AF_INET6) {
    return std::memcmp(&reinterpret_cast<const sockaddr_in6*>(a)->sin6_addr,
                       &reinterpret_cast<const sockaddr_in6*>(&b)->sin6_addr,
                       sizeof(in6_addr)) == 0;
  }
  return false;
}

std::string RouteTableFallback(const std::string& proc_root, uint32_t ipv4) {
  std::ifstream in(proc_root + "/proc/net/route");
  std::stringstream text;
  text << in.rdbuf();
  return RouteInterfaceFor(ParseRouteTable(text.str()), ipv4);
}

}  // namespace

std::string InterfaceForHost(const std::string& host, const std::string& proc_root,
                             std::string* error) {
  if (host.empty()) {
    std::string iface = RouteTableFallback(proc_root, 0x08080808u);  // any off-link address
    if (iface.empty() && error) *error = "no default route in /proc/net/route";
    return iface;
  }
  addrinfo hints{};
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo* res = nullptr;
  int rc = ::getaddrinfo(host.c_str(), "443", &hints, &res);
  if (rc != 0 || !res) {
    if (error) *error = host + ": " + ::gai_strerror(rc);
    return {};
  }
  std::string iface;
  sockaddr_storage local{};
  socklen_t len = sizeof(local);
  int fd = ::socket(res->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  // connect() on a UDP socket only selects the route and source address; no packet is sent.
  bool ok = fd >= 0 && ::connect(fd, res->ai_addr, res->ai_addrlen) == 0 &&
            ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &len) == 0;
  uint32_t ipv4 = 0;
  if (res->ai_family == AF_INET)
    ipv4 = ntohl(reinterpret_cast<const sockaddr_in*>(res->ai_addr)->sin_addr.s_addr);
  int family = res->ai_family;
  if (fd >= 0) ::close(fd);
  ::freeaddrinfo(res);
  if (ok) {
    ifaddrs* list = nullptr;
    if (::getifaddrs(&list) == 0) {
      for (ifaddrs* a = list; a; a = a->ifa_next) {
        if (SameAddress(a->ifa_addr, local)) {
          iface = a->ifa_name;
          break;
        }
      }
      ::freeifaddrs(list);
    }
  }
  if (iface.empty() && family == AF_INET) iface = RouteTableFallback(proc_root, ipv4);
  if (iface.empty() && error) *error = "no interface routes to " + host;
  return iface;
}

}  // namespace feedcheck
