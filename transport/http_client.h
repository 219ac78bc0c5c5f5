// The narrow HTTP interface the probes use. One HttpClient is one connection that is reused
// across requests (keep-alive) unless a request asks for a fresh one. libcurl sits behind it
// (curl_http_client.cpp); tests may use fakes for logic.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
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

/// Response headers, names lower-cased. A flat list rather than a map: a response has about ten
/// headers and the probes read two or three, and clear() keeps every string's storage so a
/// response object reused for the next request allocates nothing for its headers.
class HttpHeaders {
 public:
  using Entry = std::pair<std::string, std::string>;

  /// The value of `lower_name`, added empty when missing.
  std::string& operator[](std::string_view lower_name) {
    if (std::string* v = FindMutable(lower_name)) return *v;
    Entry& e = NextSlot();
    e.first.assign(lower_name);
    e.second.clear();
    return e.second;
  }
  /// Sets a header from a raw name (lower-cased here) and a value; a repeated name keeps the
  /// last value, as the map this replaces did.
  void Set(std::string_view raw_name, std::string_view value);
  const std::string* Find(std::string_view lower_name) const;
  void clear() { used_ = 0; }
  bool empty() const { return used_ == 0; }
  size_t size() const { return used_; }
  const Entry* begin() const { return entries_.data(); }
  const Entry* end() const { return entries_.data() + used_; }

 private:
  std::string* FindMutable(std::string_view lower_name) {
    return const_cast<std::string*>(static_cast<const HttpHeaders*>(this)->Find(lower_name));
  }
  Entry& NextSlot() {
    if (used_ == entries_.size()) entries_.emplace_back();
    return entries_[used_++];
  }
  std::vector<Entry> entries_;
  size_t used_ = 0;
};

struct HttpResponse {
  int status = 0;               ///< 0 when no HTTP response arrived
  std::string transport_error;  ///< empty on success; libcurl's message otherwise
  bool timed_out = false;
  bool stopped = false;  ///< aborted because a stop was requested (not a storage fault)
  /// Aborted because the body passed max_body_bytes: more than was asked for (a 206 larger than
  /// its range, an endless listing). A protocol fault, not retried.
  bool over_cap = false;
  /// Refused at its head, before any body byte was taken: it cannot be the answer to the
  /// request (AnswerMismatch in answer_check.h: a Range not honoured as asked, a coding not asked
  /// for, more body announced than asked for). A protocol fault, not retried.
  bool wrong_answer = false;
  /// Connected over TCP, but the TLS handshake never completed before the timeout: no HTTP
  /// answer (a plain-TCP or stalled server on an https:// port).
  bool tls_stalled = false;
  HttpHeaders headers;
  std::string body;         ///< when keep_body; else the first 64 KiB of an error (>= 400)
  uint64_t body_bytes = 0;  ///< bytes received, kept or not
  HttpTiming timing;
  bool reused_connection = false;

  std::string Header(std::string_view lower_name) const {
    const std::string* v = headers.Find(lower_name);
    return v ? *v : std::string();
  }
  /// Back to a fresh response, keeping the storage of its strings (for reused objects).
  void Clear();
  /// Takes `n` body bytes that passed the request's cap (the engines check it first): counts
  /// success bytes as data, keeps the body when asked, else the first 64 KiB of an error.
  void TakeBody(const HttpRequest& request, const char* data, size_t n);
};

/// What both engines (libcurl's transfers, the raw lane) call the same server faults, so a fault
/// reads the same whichever engine met it.
inline constexpr std::string_view kNotHttpText =
    "the server did not answer in HTTP (a wrong port, or another protocol on it?)";
/// Response headers past an engine's limit ("64 KiB", "libcurl's 100 KiB a line").
std::string HeadersTooLargeText(std::string_view limit);
/// The body passed what was asked for and was cut there.
std::string OverCapText(uint64_t max_body_bytes);
/// TCP connected, then no TLS handshake within `seconds`.
std::string TlsStalledText(double seconds);

class HttpClient {
 public:
  virtual ~HttpClient() = default;
  virtual HttpResponse Perform(const HttpRequest& request) = 0;
};

/// Many requests in flight at once, driven from the calling thread: `lanes` connections, each
/// running one request after another. The loop owns one request and one response object per
/// lane and hands the same ones back each time, so a caller that leaves the request as it was
/// (a fixed URL and Range) allocates nothing per request. Connections persist across Run calls.
class HttpRequestLoop {
 public:
  /// Fills the lane's next request (holding its previous one); false: this lane is done.
  using NextFn = std::function<bool(int lane, HttpRequest* request)>;
  /// The lane's request has finished (successfully or not).
  using DoneFn =
      std::function<void(int lane, const HttpRequest& request, const HttpResponse& response)>;

  virtual ~HttpRequestLoop() = default;
  /// Returns when every lane's `next` said false and its last request finished. Callbacks are
  /// never called concurrently. Once a stop is requested (SIGINT/SIGTERM) no request starts and
  /// stoppable ones in flight end with `stopped` set.
  virtual void Run(int lanes, const NextFn& next, const DoneFn& done) = 0;
  /// Which HTTP engine carried the last Run's requests, for a fact: "raw" (feedcheck's own
  /// HTTP/1.1 framing on connections libcurl opened), "libcurl" (whole libcurl transfers, e.g.
  /// through a proxy), "raw+libcurl"; empty when the loop cannot tell (test fakes).
  virtual std::string_view engine() const { return {}; }
};

}  // namespace feedcheck
