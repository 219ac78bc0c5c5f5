#include "transport/target.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "core/ascii_text.h"

namespace feedcheck {
namespace {

constexpr std::array<std::string_view, 4> kBlobSuffixes = {
    ".blob.core.windows.net", ".blob.core.chinacloudapi.cn", ".blob.core.usgovcloudapi.net",
    ".blob.storage.azure.net"};
constexpr std::array<std::string_view, 3> kDfsSuffixes = {
    ".dfs.core.windows.net", ".dfs.core.chinacloudapi.cn", ".dfs.core.usgovcloudapi.net"};

// "host[:port]" without the port.
std::string_view HostName(std::string_view host) {
  if (!host.empty() && host.front() == '[') {
    size_t close = host.find(']');
    return close == std::string_view::npos ? host : host.substr(0, close + 1);
  }
  size_t colon = host.rfind(':');
  return colon == std::string_view::npos ? host : host.substr(0, colon);
}

bool IsIpOrLocalhost(std::string_view host) {
  std::string_view name = HostName(host);
  if (name == "localhost" || (!name.empty() && name.front() == '[')) return true;
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) || c == '.';
  });
}

// Account names: 3-24 lowercase letters and digits (Azure's rule).
bool IsAccountName(std::string_view s) {
  return s.size() >= 3 && s.size() <= 24 && std::all_of(s.begin(), s.end(), [](char c) {
           return std::islower(static_cast<unsigned char>(c)) ||
                  std::isdigit(static_cast<unsigned char>(c));
         });
}

bool SuffixMatch(std::string_view host, const auto& suffixes, std::string* account) {
  for (std::string_view suffix : suffixes) {
    if (EndsWith(host, suffix) && host.size() > suffix.size()) {
      *account = std::string(host.substr(0, host.size() - suffix.size()));
      return true;
    }
  }
  return false;
}

// Splits "container/rest/of/path" into container and prefix; leading '/' ignored.
void SplitContainer(std::string_view path, Target* t) {
  while (!path.empty() && path.front() == '/') path.remove_prefix(1);
  size_t slash = path.find('/');
  t->container = DecodePercent(path.substr(0, slash));
  t->prefix = slash == std::string_view::npos ? "" : DecodePercent(path.substr(slash + 1));
}

bool Fail(std::string* error, std::string message) {
  if (error) *error = std::move(message);
  return false;
}

// An Azure ML datastore URI (azureml://datastores/D/paths/P, or the long form that starts with
// subscriptions/S/resourcegroups/RG/workspaces/W/) names a datastore, not an account: only Azure
// ML knows which account and container it points at, and feedcheck does not call Azure ML. The
// message says how to pass the storage URL instead, with the datastore's name and path filled in.
std::string AzureMlUriHelp(std::string_view rest) {
  std::string datastore = "DATASTORE", path = "PATH";
  std::vector<std::string_view> segments;
  for (size_t start = 0; start <= rest.size();) {
    size_t slash = rest.find('/', start);
    if (slash == std::string_view::npos) slash = rest.size();
    segments.push_back(rest.substr(start, slash - start));
    start = slash + 1;
  }
  for (size_t i = 0; i + 1 < segments.size(); ++i) {
    if (ToLower(segments[i]) == "datastores" && !segments[i + 1].empty())
      datastore = std::string(segments[i + 1]);
    if (ToLower(segments[i]) == "paths") {
      std::string p;
      for (size_t k = i + 1; k < segments.size(); ++k)
        if (!segments[k].empty()) p += (p.empty() ? "" : "/") + std::string(segments[k]);
      if (!p.empty()) path = DecodePercent(p);
      break;
    }
  }
  return "azureml://" + std::string(rest) + " names the Azure ML datastore '" + datastore +
         "', which only Azure ML resolves to a storage account and container; give the storage "
         "URL instead: wasbs://CONTAINER@ACCOUNT.blob.core.windows.net/" +
         path + " or https://ACCOUNT.blob.core.windows.net/CONTAINER/" + path +
         " (`az ml datastore show "
         "--name " +
         datastore + "` prints its account_name and container_name)";
}

}  // namespace

std::string_view TargetKindName(TargetKind kind) {
  switch (kind) {
    case TargetKind::kBlob:
      return "blob";
    case TargetKind::kDfs:
      return "dfs";
    case TargetKind::kEmulator:
      return "emulator";
    case TargetKind::kHttp:
      return "http";
    case TargetKind::kLocalPath:
      return "path";
  }
  return "unknown";
}

std::string EncodePath(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(path.size());
  for (size_t i = 0; i < path.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(path[i]);
    // A "." or ".." segment (a listed blob named "../x") would be removed by URL normalisation
    // (libcurl's, a proxy's) and the request would leave the container: encode its dots.
    if (c == '.' && (i == 0 || path[i - 1] == '/')) {
      size_t end = path.find('/', i);
      std::string_view segment = path.substr(i, end == std::string_view::npos ? end : end - i);
      if (segment == "." || segment == "..") {
        for (size_t k = 0; k < segment.size(); ++k) out += "%2E";
        i += segment.size() - 1;
        continue;
      }
    }
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || c == '/') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

std::string EncodeQueryValue(std::string_view value) {
  std::string out = EncodePath(value);
  std::string result;
  result.reserve(out.size());
  for (char c : out) {
    if (c == '/') {
      result += "%2F";
    } else {
      result.push_back(c);
    }
  }
  return result;
}

std::string DecodePercent(std::string_view text, bool plus_is_space) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2])));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string Target::ContainerUrl() const { return endpoint + "/" + EncodePath(container); }

std::string Target::ObjectUrl(std::string_view blob_name) const {
  if (kind == TargetKind::kHttp) return query.empty() ? url : url + "?" + query;
  if (kind == TargetKind::kLocalPath) return path;
  std::string out = ContainerUrl();
  if (!blob_name.empty()) out += "/" + EncodePath(blob_name);
  return out;
}

std::string Target::Display() const {
  if (kind == TargetKind::kLocalPath) return path;
  if (kind == TargetKind::kHttp) return url;
  std::string base = kind == TargetKind::kDfs ? dfs_endpoint : endpoint;
  std::string out = base + "/" + container;
  if (!prefix.empty()) out += "/" + prefix;
  return out;
}

bool Target::IsLoopback() const { return IsLoopbackHost(HostName()); }

bool Target::CleartextCredentialsAllowed() const { return scheme == "https" || IsLoopback(); }

bool IsLoopbackHost(std::string_view name) {
  std::string host(name);
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (inet_pton(AF_INET6, host.c_str(), &v6) == 1) {
    if (IN6_IS_ADDR_LOOPBACK(&v6)) return true;
    return IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127;
  }
  if (!IEquals(host, "localhost")) return false;
  // "localhost" counts only when every address it resolves to is loopback (an /etc/hosts that
  // maps it elsewhere does not make a network host local).
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0 || !found) return false;
  bool all_loopback = true;
  for (addrinfo* a = found; a; a = a->ai_next) {
    if (a->ai_family == AF_INET) {
      auto* sin = reinterpret_cast<sockaddr_in*>(a->ai_addr);
      all_loopback = all_loopback && (ntohl(sin->sin_addr.s_addr) >> 24) == 127;
    } else if (a->ai_family == AF_INET6) {
      auto* sin6 = reinterpret_cast<sockaddr_in6*>(a->ai_addr);
      all_loopback = all_loopback && IN6_IS_ADDR_LOOPBACK(&sin6->sin6_addr);
    } else {
      all_loopback = false;
    }
  }
  freeaddrinfo(found);
  return all_loopback;
}

std::string Target::HostName() const {
  std::string_view h = host;
  if (!h.empty() && h.front() == '[') {  // "[::1]:10000"
    auto close = h.find(']');
    return std::string(h.substr(1, close == std::string_view::npos ? h.npos : close - 1));
  }
  // One colon separates a port; more than one is a bare IPv6 literal with no port.
  auto colon = h.find(':');
  if (colon != std::string_view::npos && h.find(':', colon + 1) == std::string_view::npos)
    h = h.substr(0, colon);
  return std::string(h);
}

bool ParseTarget(std::string_view text, const TargetParseOptions& options, Target* out,
                 std::string* error) {
  Target t;
  if (text.empty()) return Fail(error, "empty target");
  size_t scheme_end = text.find("://");
  if (scheme_end == std::string_view::npos || text.rfind("file://", 0) == 0) {
    t.kind = TargetKind::kLocalPath;
    t.path = std::string(text.rfind("file://", 0) == 0 ? text.substr(7) : text);
    if (t.path.empty()) return Fail(error, "empty path in target");
    *out = std::move(t);
    return true;
  }
  std::string scheme = ToLower(text.substr(0, scheme_end));
  std::string_view rest = text.substr(scheme_end + 3);
  size_t q = rest.find('?');
  if (q != std::string_view::npos) {
    t.query = std::string(rest.substr(q + 1));
    rest = rest.substr(0, q);
  }
  size_t hash = rest.find('#');
  if (hash != std::string_view::npos) rest = rest.substr(0, hash);
  size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  std::string_view path = slash == std::string_view::npos ? "" : rest.substr(slash);
  if (authority.empty()) return Fail(error, "no host in target '" + std::string(text) + "'");

  if (scheme == "wasb" || scheme == "abfs") {
    // Hadoop's unencrypted forms: they would send the credential and the data in cleartext.
    // Azure accepts HTTPS for both, so say which scheme to use instead of downgrading silently.
    return Fail(error, scheme + ":// is plain HTTP (credentials and data in cleartext); use " +
                           scheme + "s://" + std::string(rest.substr(0, rest.find('#'))) +
                           " (HTTPS) instead");
  }
  if (scheme == "wasbs" || scheme == "abfss") {
    // CONTAINER@ACCOUNT.blob.core.windows.net/PATH
    size_t at = authority.find('@');
    if (at == std::string_view::npos || at == 0)
      return Fail(error, scheme + " target needs CONTAINER@ACCOUNT.<endpoint>: '" +
                             std::string(authority) + "'");
    // CONTAINER:PASSWORD@ is a credential in the URL (container names never hold ':'); it is
    // refused, and never shown.
    if (authority.substr(0, at).find(':') != std::string_view::npos || authority.rfind('@') != at)
      return Fail(error, scheme +
                             ":// target holds a password before '@' (not shown); the part "
                             "before '@' is the container alone, credentials go in environment "
                             "variables or files");
    std::string host = ToLower(authority.substr(at + 1));
    bool dfs = scheme.rfind("abfs", 0) == 0;
    t.scheme = "https";
    t.container = DecodePercent(authority.substr(0, at));
    std::string account;
    if (dfs) {
      if (!SuffixMatch(host, kDfsSuffixes, &account))
        return Fail(error, "abfss host must be ACCOUNT.dfs.core.windows.net, got '" + host + "'");
      t.kind = TargetKind::kDfs;
      t.dfs_endpoint = t.scheme + "://" + host;
      std::string blob_host = host;
      blob_host.replace(blob_host.find(".dfs."), 5, ".blob.");
      t.host = blob_host;
    } else {
      if (!SuffixMatch(host, kBlobSuffixes, &account))
        return Fail(error, "wasbs host must be ACCOUNT.blob.core.windows.net, got '" + host + "'");
      t.kind = TargetKind::kBlob;
      t.host = host;
    }
    t.account = account;
    t.endpoint = t.scheme + "://" + t.host;
    std::string_view p = path;
    while (!p.empty() && p.front() == '/') p.remove_prefix(1);
    t.prefix = DecodePercent(p);
    *out = std::move(t);
    return true;
  }
  if (scheme == "azureml") return Fail(error, AzureMlUriHelp(rest));
  if (scheme != "http" && scheme != "https")
    return Fail(error, "unsupported scheme '" + scheme +
                           "://' (use https://, wasbs://, abfss://, http:// or a path)");
  t.scheme = scheme;
  std::string host = ToLower(authority);
  if (host.find('@') != std::string::npos)
    return Fail(error, "credentials in the URL are not accepted; use environment variables");
  t.host = host;
  std::string account;
  if (SuffixMatch(HostName(host), kBlobSuffixes, &account)) {
    t.kind = TargetKind::kBlob;
    t.account = account;
    t.endpoint = scheme + "://" + host;
    SplitContainer(path, &t);
    if (t.container.empty()) return Fail(error, "blob URL has no container: '" + host + "'");
  } else if (SuffixMatch(HostName(host), kDfsSuffixes, &account)) {
    t.kind = TargetKind::kDfs;
    t.account = account;
    t.dfs_endpoint = scheme + "://" + host;
    std::string blob_host = host;
    blob_host.replace(blob_host.find(".dfs."), 5, ".blob.");
    t.host = blob_host;
    t.endpoint = scheme + "://" + blob_host;
    SplitContainer(path, &t);
    if (t.container.empty()) return Fail(error, "dfs URL has no file system: '" + host + "'");
  } else {
    // Path-style emulator: loopback/IP host whose first segment names a known account.
    std::string_view p = path;
    while (!p.empty() && p.front() == '/') p.remove_prefix(1);
    std::string_view first = p.substr(0, p.find('/'));
    bool known_account = first == "devstoreaccount1" ||
                         (!options.account_hint.empty() && first == options.account_hint);
    if (IsIpOrLocalhost(host) && known_account && IsAccountName(first)) {
      t.kind = TargetKind::kEmulator;
      t.account = std::string(first);
      t.endpoint = scheme + "://" + host + "/" + t.account;
      SplitContainer(p.substr(first.size()), &t);
      if (t.container.empty())
        return Fail(error, "emulator URL has no container after the account '" + t.account + "'");
    } else {
      t.kind = TargetKind::kHttp;
      t.url = scheme + "://" + std::string(authority) + std::string(path.empty() ? "/" : path);
      t.endpoint = scheme + "://" + std::string(authority);
    }
  }
  *out = std::move(t);
  return true;
}

}  // namespace feedcheck
