// HttpClient over one libcurl easy handle: one handle keeps one connection alive across
// requests, which is what the probes measure (reused vs new connections).
#pragma once

#include <memory>
#include <string>

#include "transport/http_client.h"

namespace feedcheck {

struct TlsOptions {
  std::string ca_file;    ///< PEM bundle to trust instead of the system store
  bool insecure = false;  ///< skip verification (self-signed test servers only)
};

struct CurlClientOptions {
  TlsOptions tls;
  /// libcurl's receive buffer; large buffers cut per-callback overhead for multi-MiB ranges.
  long buffer_bytes = 512 * 1024;
  /// Never through a proxy, whatever http_proxy/https_proxy/all_proxy say: the instance
  /// metadata endpoint (a proxy must not be asked for, nor answer with, a token) and loopback
  /// targets (a credential for 127.0.0.1 must not travel to a proxy in cleartext).
  bool no_proxy = false;
};

/// Initialises libcurl once per process (thread-safe); CurlHttpClient calls it itself.
void EnsureCurlGlobalInit();

class CurlHttpClient : public HttpClient {
 public:
  explicit CurlHttpClient(CurlClientOptions options = {});
  ~CurlHttpClient() override;
  CurlHttpClient(const CurlHttpClient&) = delete;
  CurlHttpClient& operator=(const CurlHttpClient&) = delete;

  HttpResponse Perform(const HttpRequest& request) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace feedcheck
