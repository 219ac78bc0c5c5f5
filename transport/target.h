// What a probe points at, parsed from the forms users paste: blob URLs, wasbs://, abfss://,
// emulator path-style URLs, plain http(s) URLs and local paths.
#pragma once

#include <string>
#include <string_view>

namespace feedcheck {

enum class TargetKind {
  kBlob,       ///< https://ACCOUNT.blob.core.windows.net/CONTAINER/PREFIX (or wasbs://)
  kDfs,        ///< abfss://FS@ACCOUNT.dfs.core.windows.net/PATH (data read via the blob endpoint)
  kEmulator,   ///< http://127.0.0.1:PORT/ACCOUNT/CONTAINER/PREFIX (Azurite, path-style)
  kHttp,       ///< any other http(s) URL: one object, no Azure protocol (nginx in tests)
  kLocalPath,  ///< a local or mounted path
};

std::string_view TargetKindName(TargetKind kind);

struct Target {
  TargetKind kind = TargetKind::kHttp;
  std::string scheme;  ///< "http" | "https"; empty for local paths
  std::string host;    ///< "acct.blob.core.windows.net", "127.0.0.1:10000"
  /// Base URL that container names append to: "https://acct.blob.core.windows.net" or, for the
  /// emulator, "http://127.0.0.1:10000/devstoreaccount1". For kDfs this is the blob endpoint.
  std::string endpoint;
  std::string dfs_endpoint;  ///< "https://acct.dfs.core.windows.net" for kDfs, else empty
  std::string account;
  std::string container;  ///< container or file system
  std::string prefix;     ///< blob name or prefix inside the container, no leading '/'
  std::string query;      ///< query string that came with the URL, without '?'
  std::string url;        ///< kHttp: the URL as given, without its query
  std::string path;       ///< kLocalPath

  bool is_azure() const {
    return kind == TargetKind::kBlob || kind == TargetKind::kDfs || kind == TargetKind::kEmulator;
  }
  /// endpoint + "/" + container.
  std::string ContainerUrl() const;
  /// The URL of one blob in the container (name percent-encoded, '/' kept); for kHttp the URL
  /// with its query. Azure URLs never carry `query`: a SAS is added by the signer.
  std::string ObjectUrl(std::string_view blob_name) const;
  /// The URL of the target itself: the blob or prefix (kHttp: the URL).
  std::string Url() const { return ObjectUrl(prefix); }
  /// For messages: scheme://host/container/prefix, with no query (never a SAS).
  std::string Display() const;
  /// The host to resolve and route to: `host` without its port or IPv6 brackets ("127.0.0.1",
  /// "::1", "acct.blob.core.windows.net"); empty for local paths.
  std::string HostName() const;
  /// 127.0.0.0/8, ::1 (or ::ffff:127.x), or localhost resolving to those only (IsLoopbackHost).
  bool IsLoopback() const;
  /// Whether a credential may be sent: over https, or over plain http only to a loopback
  /// address (Azurite, a test server), never in cleartext across a network. An emulator on
  /// another address is no exception: the network between is the same.
  bool CleartextCredentialsAllowed() const;
};

struct TargetParseOptions {
  /// Accounts that mark a loopback/IP URL as path-style emulator (first path segment).
  /// "devstoreaccount1" is always recognised.
  std::string account_hint;
};

/// Whether `host` (no port, no brackets) is a loopback address: an IPv4 literal in
/// 127.0.0.0/8, ::1 or ::ffff:127.x.x.x, or "localhost" when every address it resolves to is
/// one of those. A name that only starts with "127." is not.
bool IsLoopbackHost(std::string_view host);

/// Parses `text`. Returns false with a message naming the problem when it is not a target.
bool ParseTarget(std::string_view text, const TargetParseOptions& options, Target* out,
                 std::string* error);

/// Percent-encodes a path (RFC 3986 unreserved kept, '/' kept; the dots of a "." or ".."
/// segment encoded, so no normalisation can take a blob name out of its container).
std::string EncodePath(std::string_view path);
/// Percent-encodes a query component (everything but unreserved).
std::string EncodeQueryValue(std::string_view value);
/// Decodes %XX (and '+' as space when `plus_is_space`).
std::string DecodePercent(std::string_view text, bool plus_is_space = false);

}  // namespace feedcheck
