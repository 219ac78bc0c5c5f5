// The narrow HTTP interface the probes use. One HttpClient is one connection that is reused
// across requests (keep-alive) unless a request asks for a fresh one. libcurl sits behind it
// (curl_http_client.cpp); tests may use fakes for logic.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace feedcheck {

struct HttpRequest {
  std::string method = "GET";
  std::string url;  ///< full URL; may carry a SAS query (never printed: see Redact())
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;        ///< for PUT (test data), empty otherwise
  bool keep_body = false;  ///< keep the body (XML listings); otherwise count and drop
  /// Cap on the body, kept or dropped: a larger response is cut off with a transport error, so
  /// a server that ignores Range cannot blow a byte budget.
  uint64_t max_body_bytes = 64ull << 20;
  double timeout_s = 30;  ///< whole request
  double connect_timeout_s = 10;
  /// When set, body bytes are also added here as they arrive, so a throughput window can be
  /// cut at any instant rather than at request completions.
  std::atomic<uint64_t>* body_counter = nullptr;
  bool fresh_connection = false;  ///< close any reused connection first (measures connect/TLS)
  /// Abort (within about a second: libcurl's progress callback) once SIGINT/SIGTERM asked the probe
  /// to stop, so a stalled or long transfer cannot hold the stop up. Cleanup requests (deleting
  /// test data) clear it.
  bool stoppable = true;
};

/// Phase times in seconds from the start of the request, as libcurl reports them.
struct HttpTiming {
  double dns_s = 0;
  double connect_s = 0;  ///< TCP connect done (0 when reused)
  double tls_s = 0;      ///< TLS handshake done (0 over http or when reused)
  double ttfb_s = 0;     ///< first response byte
  double total_s = 0;
};

struct HttpResponse {
  int status = 0;               ///< 0 when no HTTP response arrived
  std::string transport_error;  ///< empty on success; libcurl's message otherwise
  bool timed_out = false;
  bool stopped = false;  ///< aborted because a stop was requested (not a storage fault)
  /// Aborted because the body passed max_body_bytes: more than was asked for (a 206 larger than
  /// its range, an endless listing). A protocol fault, not retried.
  bool over_cap = false;
  std::map<std::string, std::string> headers;  ///< names lower-cased
  std::string body;         ///< when keep_body; else the first 64 KiB of an error (>= 400)
  uint64_t body_bytes = 0;  ///< bytes received, kept or not
  HttpTiming timing;
  bool reused_connection = false;

  std::string Header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? std::string() : it->second;
  }
};

class HttpClient {
 public:
  virtual ~HttpClient() = default;
  virtual HttpResponse Perform(const HttpRequest& request) = 0;
};

}  // namespace feedcheck
