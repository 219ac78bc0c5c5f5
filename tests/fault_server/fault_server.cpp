// fault_server: a small HTTP/1.1 server on 127.0.0.1 that answers like Azure Blob Storage having a
// bad day (faults.h lists the paths). It counts the requests it answered and the body bytes it
// sent, so tests can prove a probe's --max-requests and --max-bytes from the server's side:
//   GET /__stats  -> {"requests":N,"body_bytes":B,"by_status":{"200":n,...}}  (not counted)
// It lives at most --lifetime-s seconds, and stops on SIGTERM/SIGINT printing the same stats on
// stderr. One thread per connection (at most kMaxConnections), keep-alive.
//
// Paths under the container "fault-store" (/ACCOUNT/fault-store/NAME) are a small in-memory
// blob store instead: Put Blob (201), Delete Blob (202), reads with ranges and List Blobs with a
// prefix, so --create-test-data runs against it and every setup, probe and cleanup request is
// counted here, with the request body bytes (uploads) as "upload_bytes". Listings page by
// maxresults (at most --store-page-entries, 5000 by default) and marker; a Put Blob with
// "If-None-Match: *" on an existing name is 409 BlobAlreadyExists. Hostile listing modes:
// --store-empty-pages N sends N empty pages, each with a NextMarker, before the entries (Azure
// documents such pages); --store-ignore-prefix 1 lists the whole store whatever prefix= says;
// --store-plant-after-list NAME creates PREFIX+NAME (3 bytes, PREFIX the listing's prefix=) right
// after the first listing, as another writer would between a client's emptiness check and its
// upload.
//
// usage: fault_server [--port 0] [--port-file FILE] [--lifetime-s 120] [--object-bytes N]
//                     [--slow-first-byte-ms 5000] [--list-entries 20] [--list-pages 1]
//                     [--list-body-faults 0|1] [--silent-port-file FILE]
//                     [--redirect-to http://HOST:PORT] [--store-empty-pages N]
//                     [--store-ignore-prefix 0|1] [--store-plant-after-list NAME]
//                     [--store-page-entries N]
// --silent-port-file opens a second loopback port that accepts connections and then never reads
// or answers (a stalled TLS handshake, a server that does not read); /__stats counts them as
// "silent_connections". --redirect-to is where the "redirect-away" fault points.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "tests/fault_server/faults.h"

namespace fs = feedcheck::fault_server;

namespace {

constexpr int kMaxConnections = 128;
constexpr size_t kMaxHeaderBytes = 16 * 1024;
constexpr size_t kChunkBytes = 256 * 1024;

volatile sig_atomic_t g_stop = 0;
std::atomic<int> g_connections{0};
std::atomic<uint64_t> g_requests{0};
std::atomic<uint64_t> g_body_bytes{0};
std::mutex g_status_mutex;
std::map<int, uint64_t> g_by_status;
std::map<std::string, uint64_t> g_path_requests;  // for the faults that depend on the count
std::atomic<uint64_t> g_upload_bytes{0};
std::atomic<uint64_t> g_silent_connections{0};
std::mutex g_store_mutex;
std::map<std::string, uint64_t> g_store;  // fault-store: blob name -> size
// Store listing modes (header comment): empty pages first, prefix= ignored, a blob planted after
// the first listing.
uint64_t g_store_empty_pages = 0;
uint64_t g_store_page_entries = 5000;
bool g_store_ignore_prefix = false;
std::string g_store_plant_after_list;
bool g_store_planted = false;
fs::Settings g_settings;

void OnSignal(int) { g_stop = 1; }

std::string StatsJson() {
  std::string j = "{\"requests\":" + std::to_string(g_requests.load()) +
                  ",\"body_bytes\":" + std::to_string(g_body_bytes.load()) +
                  ",\"upload_bytes\":" + std::to_string(g_upload_bytes.load()) +
                  ",\"silent_connections\":" + std::to_string(g_silent_connections.load()) +
                  ",\"by_status\":{";
  std::lock_guard<std::mutex> lock(g_status_mutex);
  bool first = true;
  for (const auto& [status, n] : g_by_status) {
    j += (first ? "\"" : ",\"") + std::to_string(status) + "\":" + std::to_string(n);
    first = false;
  }
  return j + "}}";
}

bool SendAll(int fd, const char* data, size_t size, bool count_as_body) {
  while (size > 0) {
    ssize_t n = send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    size_t sent = static_cast<size_t>(n);
    if (count_as_body) g_body_bytes += sent;
    data += sent;
    size -= sent;
  }
  return true;
}

// Waits up to `ms`, in small steps, returning false early when the peer closed or we stop.
bool WaitWhilePeerOpen(int fd, int ms) {
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (!g_stop && std::chrono::steady_clock::now() < until) {
    pollfd p{fd, POLLRDHUP, 0};
    if (poll(&p, 1, 50) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR))) return false;
  }
  return !g_stop;
}

bool SendSynthetic(int fd, uint64_t offset, uint64_t bytes) {
  // A pattern buffer 26 bytes longer than a chunk, so any offset's slice is contiguous.
  static const std::string pattern = [] {
    std::string p(kChunkBytes + 26, '\0');
    for (size_t i = 0; i < p.size(); ++i) p[i] = fs::ObjectByte(i);
    return p;
  }();
  while (bytes > 0) {
    size_t n = bytes < kChunkBytes ? static_cast<size_t>(bytes) : kChunkBytes;
    if (!SendAll(fd, pattern.data() + offset % 26, n, true)) return false;
    offset += n;
    bytes -= n;
  }
  return true;
}

// A literal body with plan.pad_bytes spaces inside it at plan.pad_at.
bool SendPadded(int fd, const fs::Plan& plan) {
  static const std::string spaces(kChunkBytes, ' ');
  size_t at = std::min(plan.pad_at, plan.body.size());
  if (!SendAll(fd, plan.body.data(), at, true)) return false;
  for (uint64_t left = plan.pad_bytes; left > 0;) {
    size_t n = left < kChunkBytes ? static_cast<size_t>(left) : kChunkBytes;
    if (!SendAll(fd, spaces.data(), n, true)) return false;
    left -= n;
  }
  return SendAll(fd, plan.body.data() + at, plan.body.size() - at, true);
}

// A connection on the silent port: accepted, then never read from or written to (a TLS
// handshake that stalls, a server that accepts and never reads), until the client hangs up.
void HoldSilently(int fd) {
  WaitWhilePeerOpen(fd, 24 * 3600 * 1000);
  close(fd);
  --g_connections;
}

// Parses one request head; false on malformed or oversized input.
bool ParseHead(const std::string& head, fs::Request* r) {
  size_t line_end = head.find("\r\n");
  std::string line = head.substr(0, line_end);
  size_t sp1 = line.find(' ');
  size_t sp2 = line.find(' ', sp1 + 1);
  if (sp1 == std::string::npos || sp2 == std::string::npos) return false;
  r->method = line.substr(0, sp1);
  std::string target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  size_t q = target.find('?');
  r->path = target.substr(0, q);
  r->query = q == std::string::npos ? "" : target.substr(q + 1);
  size_t pos = line_end + 2;
  while (pos < head.size()) {
    size_t end = head.find("\r\n", pos);
    if (end == std::string::npos) end = head.size();
    std::string h = head.substr(pos, end - pos);
    size_t colon = h.find(':');
    if (colon != std::string::npos) {
      std::string name = h.substr(0, colon);
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      std::string value = h.substr(colon + 1);
      while (!value.empty() && value.front() == ' ') value.erase(0, 1);
      if (name == "range" || name == "x-ms-range") r->range = value;
      if (name == "content-length") r->content_length = std::strtoull(value.c_str(), nullptr, 10);
      if (name == "connection" && (value == "close" || value == "Close")) r->close = true;
      if (name == "if-none-match") r->if_none_match = value;
    }
    pos = end + 2;
  }
  return true;
}

// Sends `head` and then the plan's body one byte per `ms`, until the body is sent, the peer
// hangs up or the server stops: a slowloris response.
bool Trickle(int fd, const std::string& head, const fs::Plan& plan, int ms) {
  uint64_t body = plan.head ? 0 : (plan.body.empty() ? plan.synthetic_bytes : plan.body.size());
  for (uint64_t i = 0; i < head.size() + body; ++i) {
    if (!WaitWhilePeerOpen(fd, ms)) return false;
    char c = i < head.size()     ? head[i]
             : plan.body.empty() ? fs::ObjectByte(plan.synthetic_offset + (i - head.size()))
                                 : plan.body[i - head.size()];
    if (!SendAll(fd, &c, 1, i >= head.size())) return false;
  }
  return true;
}

// The broken heads (faults.h HeadFault); false: the connection closes afterwards.
bool RespondWithBrokenHead(int fd, const fs::Plan& plan, const std::string& status_line) {
  switch (plan.head_fault) {
    case fs::HeadFault::kNone:
      return true;
    case fs::HeadFault::kNotHttp: {
      const std::string banner = "SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3\r\n";
      SendAll(fd, banner.data(), banner.size(), false);
      return false;
    }
    case fs::HeadFault::kBadChunked: {
      const std::string head = status_line + "Transfer-Encoding: chunked\r\n\r\nzz\r\n" +
                               std::string(64, 'x') + "\r\n0\r\n\r\n";
      SendAll(fd, head.data(), head.size(), false);
      return false;
    }
    case fs::HeadFault::kEndlessHeaders: {
      if (!SendAll(fd, status_line.data(), status_line.size(), false)) return false;
      for (uint64_t i = 0; !g_stop; ++i) {
        std::string line =
            "x-ms-meta-k" + std::to_string(i) + ": " + std::string(100, 'v') + "\r\n";
        if (!SendAll(fd, line.data(), line.size(), false)) return false;
      }
      return false;
    }
    case fs::HeadFault::kHugeHeader:
      return true;  // the line goes into the head; the rest of the response is healthy
  }
  return false;
}

// Carries out a plan; false when the connection must close afterwards.
bool Respond(int fd, const fs::Plan& plan) {
  if (plan.first_byte_delay_ms > 0 && !WaitWhilePeerOpen(fd, plan.first_byte_delay_ms)) {
    return false;
  }
  std::string head = "HTTP/1.1 " + std::to_string(plan.status) + " " + plan.reason + "\r\n";
  if (plan.head_fault != fs::HeadFault::kNone && plan.head_fault != fs::HeadFault::kHugeHeader)
    return RespondWithBrokenHead(fd, plan, head);
  if (plan.head_fault == fs::HeadFault::kHugeHeader)
    head += "x-ms-meta-padding: " + std::string(1u << 20, 'a') + "\r\n";
  for (const auto& [name, value] : plan.headers) head += name + ": " + value + "\r\n";
  bool chunked = plan.body_fault == fs::BodyFault::kEndlessChunked ||
                 plan.body_fault == fs::BodyFault::kChunked;
  head += chunked ? std::string("Transfer-Encoding: chunked\r\n")
                  : "Content-Length: " + std::to_string(plan.content_length) + "\r\n";
  head += "x-ms-version: 2023-11-03\r\nServer: feedcheck-fault-server\r\n\r\n";
  if (plan.trickle_ms > 0) return Trickle(fd, head, plan, plan.trickle_ms);
  if (!SendAll(fd, head.data(), head.size(), false)) return false;
  if (plan.head) return true;
  if (plan.body_fault == fs::BodyFault::kChunked) {
    uint64_t size = plan.body.empty() ? plan.synthetic_bytes : plan.body.size();
    if (size > 0) {
      char size_line[32];
      std::snprintf(size_line, sizeof size_line, "%llx\r\n", static_cast<unsigned long long>(size));
      if (!SendAll(fd, size_line, std::strlen(size_line), false)) return false;
      bool sent = plan.body.empty() ? SendSynthetic(fd, plan.synthetic_offset, size)
                                    : SendAll(fd, plan.body.data(), plan.body.size(), true);
      if (!sent || !SendAll(fd, "\r\n", 2, false)) return false;
    }
    return SendAll(fd, "0\r\n\r\n", 5, false);
  }
  if (!plan.body.empty()) {
    // A literal body (errors, listings) meets the same body faults as object data.
    size_t half = plan.body.size() / 2;
    switch (plan.body_fault) {
      case fs::BodyFault::kNone:
        if (plan.pad_bytes > 0) return SendPadded(fd, plan);
        return SendAll(fd, plan.body.data(), plan.body.size(), true);
      case fs::BodyFault::kResetMidBody: {
        SendAll(fd, plan.body.data(), half, true);
        linger hard{1, 0};
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
        return false;
      }
      case fs::BodyFault::kStallMidBody:
        SendAll(fd, plan.body.data(), half, true);
        WaitWhilePeerOpen(fd, 24 * 3600 * 1000);
        return false;
      case fs::BodyFault::kShortBody:
        SendAll(fd, plan.body.data(), plan.body.size(), true);
        return false;
      case fs::BodyFault::kEndlessChunked: {
        char size_line[32];
        std::snprintf(size_line, sizeof size_line, "%zx\r\n", plan.body.size());
        while (!g_stop) {  // until the client hangs up (send fails) or the server stops
          if (!SendAll(fd, size_line, std::strlen(size_line), false) ||
              !SendAll(fd, plan.body.data(), plan.body.size(), true) ||
              !SendAll(fd, "\r\n", 2, false))
            return false;
        }
        return false;
      }
      case fs::BodyFault::kChunked:
        return false;  // sent above
    }
    return false;
  }

  uint64_t half = plan.synthetic_bytes / 2;
  switch (plan.body_fault) {
    case fs::BodyFault::kNone:
      return SendSynthetic(fd, plan.synthetic_offset, plan.synthetic_bytes);
    case fs::BodyFault::kResetMidBody: {
      SendSynthetic(fd, plan.synthetic_offset, half);
      linger hard{1, 0};  // close() now sends RST instead of FIN
      setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
      return false;
    }
    case fs::BodyFault::kStallMidBody:
      SendSynthetic(fd, plan.synthetic_offset, half);
      WaitWhilePeerOpen(fd, 24 * 3600 * 1000);  // until the client gives up or we stop
      return false;
    case fs::BodyFault::kShortBody:
      SendSynthetic(fd, plan.synthetic_offset, plan.synthetic_bytes);
      return false;  // FIN with fewer bytes than Content-Length announced
    case fs::BodyFault::kEndlessChunked:
      return false;  // listings only
    case fs::BodyFault::kChunked:
      return false;  // sent above
  }
  return false;
}

// Reads and discards a request body of `length` bytes (part may already be in `buffer`).
bool DrainBody(int fd, std::string* buffer, uint64_t length) {
  uint64_t have = std::min<uint64_t>(length, buffer->size());
  buffer->erase(0, static_cast<size_t>(have));
  g_upload_bytes += have;
  length -= have;
  char chunk[65536];
  while (length > 0 && !g_stop) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    ssize_t n = recv(fd, chunk, std::min<uint64_t>(sizeof chunk, length), 0);
    if (n <= 0) return false;
    g_upload_bytes += static_cast<uint64_t>(n);
    length -= static_cast<uint64_t>(n);
  }
  return length == 0;
}

std::string QueryParam(const std::string& query, const std::string& name) {
  size_t at = 0;
  while ((at = query.find(name + "=", at)) != std::string::npos) {
    if (at == 0 || query[at - 1] == '&') {
      size_t start = at + name.size() + 1;
      std::string raw = query.substr(start, query.find('&', start) - start);
      std::string out;
      for (size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == '%' && i + 2 < raw.size()) {
          out.push_back(static_cast<char>(std::strtol(raw.substr(i + 1, 2).c_str(), nullptr, 16)));
          i += 2;
        } else {
          out.push_back(raw[i]);
        }
      }
      return out;
    }
    ++at;
  }
  return "";
}

// The in-memory blob store under /ACCOUNT/fault-store/ (header comment).
fs::Plan StorePlan(const fs::Request& r) {
  const std::string marker = "/fault-store";
  size_t at = r.path.find(marker);
  std::string name = r.path.substr(at + marker.size());
  while (!name.empty() && name.front() == '/') name.erase(0, 1);
  fs::Plan p;
  auto not_found = [&] {
    p.status = 404;
    p.reason = "Not Found";
    p.headers = {{"x-ms-error-code", "BlobNotFound"}};
    return p;
  };
  std::lock_guard<std::mutex> lock(g_store_mutex);
  if (r.query.find("comp=list") != std::string::npos) {
    std::string prefix = QueryParam(r.query, "prefix");
    std::string from = QueryParam(r.query, "marker");
    std::string max_text = QueryParam(r.query, "maxresults");
    uint64_t max_results = max_text.empty() ? 5000 : std::strtoull(max_text.c_str(), nullptr, 10);
    max_results = std::min(max_results, g_store_page_entries);
    p.headers = {{"Content-Type", "application/xml"}};
    p.body = "<?xml version=\"1.0\" encoding=\"utf-8\"?><EnumerationResults><Blobs>";
    // Empty pages first, each with a NextMarker, as Azure may send them ("empty-K").
    uint64_t empty_page = 0;
    if (from.rfind("empty-", 0) == 0) {
      empty_page = std::strtoull(from.c_str() + 6, nullptr, 10);
      from.clear();
    }
    if (empty_page < g_store_empty_pages) {
      p.body += "</Blobs><NextMarker>empty-" + std::to_string(empty_page + 1) +
                "</NextMarker></EnumerationResults>";
      p.content_length = p.body.size();
      return p;
    }
    if (g_store_ignore_prefix) prefix.clear();
    auto it = from.empty() ? g_store.lower_bound(prefix) : g_store.upper_bound(from);
    uint64_t n = 0;
    std::string last;
    for (; it != g_store.end() && n < max_results; ++it, ++n) {
      if (it->first.compare(0, prefix.size(), prefix) != 0) break;
      p.body += "<Blob><Name>" + it->first + "</Name><Properties><Content-Length>" +
                std::to_string(it->second) + "</Content-Length></Properties></Blob>";
      last = it->first;
    }
    bool more =
        n == max_results && it != g_store.end() && it->first.compare(0, prefix.size(), prefix) == 0;
    p.body += more ? "</Blobs><NextMarker>" + last + "</NextMarker></EnumerationResults>"
                   : "</Blobs><NextMarker /></EnumerationResults>";
    p.content_length = p.body.size();
    // A writer that comes between a client's emptiness check and its upload.
    if (!g_store_plant_after_list.empty() && !g_store_planted) {
      g_store_planted = true;
      g_store.emplace(QueryParam(r.query, "prefix") + g_store_plant_after_list, 3);
    }
    return p;
  }
  if (r.method == "PUT" && r.query.find("restype=container") != std::string::npos) {
    p.status = 409;  // the store's one container is always there
    p.reason = "The specified container already exists.";
    p.headers = {{"x-ms-error-code", "ContainerAlreadyExists"}};
    return p;
  }
  if (r.method == "PUT") {
    if (r.if_none_match == "*" && g_store.count(name)) {
      p.status = 409;
      p.reason = "The specified blob already exists.";
      p.headers = {{"x-ms-error-code", "BlobAlreadyExists"}};
      return p;
    }
    g_store[name] = r.content_length;
    p.status = 201;
    p.reason = "Created";
    return p;
  }
  if (r.method == "DELETE") {
    if (g_store.erase(name) == 0) return not_found();
    p.status = 202;
    p.reason = "Accepted";
    return p;
  }
  auto it = g_store.find(name);
  if (it == g_store.end()) return not_found();
  fs::Settings settings;
  settings.object_bytes = it->second;
  fs::Request plain = r;
  plain.path = "/store/" + name;  // no fault segment: a healthy object of the stored size
  return fs::PlanFor(plain, settings);
}

void Serve(int fd) {
  std::string buffer;
  char chunk[8192];
  while (!g_stop) {
    size_t head_end;
    while ((head_end = buffer.find("\r\n\r\n")) == std::string::npos) {
      if (buffer.size() > kMaxHeaderBytes) goto done;
      pollfd p{fd, POLLIN, 0};
      int ready = poll(&p, 1, 100);
      if (g_stop) goto done;
      if (ready <= 0) continue;
      ssize_t n = recv(fd, chunk, sizeof chunk, 0);
      if (n <= 0) goto done;
      buffer.append(chunk, static_cast<size_t>(n));
    }
    {
      fs::Request request;
      std::string head = buffer.substr(0, head_end);
      buffer.erase(0, head_end + 4);
      if (!ParseHead(head, &request)) break;
      // Request bodies (PUT) are not expected here; a Content-Length body would be misread as
      // the next request, so such connections are closed after the answer.
      bool has_body = head.find("Content-Length:") != std::string::npos ||
                      head.find("content-length:") != std::string::npos;
      if (request.path == "/__stats") {
        std::string body = StatsJson();
        std::string out = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                          std::to_string(body.size()) + "\r\n\r\n" + body;
        if (!SendAll(fd, out.data(), out.size(), false)) break;
        continue;
      }
      {
        std::lock_guard<std::mutex> lock(g_status_mutex);
        request.sequence = ++g_path_requests[request.path];
      }
      bool store = request.path.find("/fault-store") != std::string::npos;
      if (store && request.content_length > 0 && !DrainBody(fd, &buffer, request.content_length))
        break;
      fs::Plan plan = store ? StorePlan(request) : fs::PlanFor(request, g_settings);
      if (store) has_body = false;  // read above: the connection stays usable
      ++g_requests;
      {
        std::lock_guard<std::mutex> lock(g_status_mutex);
        ++g_by_status[plan.status];
      }
      if (!Respond(fd, plan) || request.close || has_body) break;
    }
  }
done:
  close(fd);
  --g_connections;
}

bool ParseU64(const char* text, uint64_t* out) {
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0') return false;
  *out = v;
  return true;
}

// A loopback listener on `port` (0: any); -1 after saying why.
int Listen(uint16_t port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);  // loopback only, whatever the flags say
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      listen(fd, 128) != 0) {
    std::fprintf(stderr, "fault_server: cannot listen on 127.0.0.1:%u: %s\n", port,
                 std::strerror(errno));
    if (fd >= 0) close(fd);
    return -1;
  }
  return fd;
}

// The port `listener` is bound to, written to `file` (when given) then renamed, so a reader
// never sees a half-written number.
unsigned WritePortFile(int listener, const std::string& file) {
  sockaddr_in addr{};
  socklen_t len = sizeof addr;
  getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
  unsigned bound = ntohs(addr.sin_port);
  if (!file.empty()) {
    std::string tmp = file + ".tmp";
    std::ofstream(tmp) << bound << "\n";
    std::rename(tmp.c_str(), file.c_str());
  }
  return bound;
}

int Usage() {
  std::fprintf(stderr,
               "usage: fault_server [--port 0] [--port-file FILE] [--lifetime-s 120]\n"
               "                    [--object-bytes N] [--slow-first-byte-ms MS] "
               "[--list-entries N]\n                    [--list-pages N] [--list-body-faults 0|1]\n"
               "                    [--silent-port-file FILE] [--redirect-to http://HOST:PORT]\n"
               "                    [--store-empty-pages N] [--store-ignore-prefix 0|1]\n"
               "                    [--store-plant-after-list NAME] [--store-page-entries N]\n"
               "faults (path segment fault-NAME):");
  for (const auto& name : fs::FaultNames()) std::fprintf(stderr, " %s", name.c_str());
  std::fprintf(stderr, "\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t port = 0, lifetime_s = 120, value = 0;
  std::string port_file, silent_port_file;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (i + 1 >= argc) return Usage();
    const char* arg = argv[++i];
    if (flag == "--port-file") {
      port_file = arg;
      continue;
    }
    if (flag == "--silent-port-file") {
      silent_port_file = arg;
      continue;
    }
    if (flag == "--store-plant-after-list") {
      g_store_plant_after_list = arg;
      continue;
    }
    if (flag == "--redirect-to") {
      g_settings.redirect_to = arg;
      continue;
    }
    if (!ParseU64(arg, &value)) return Usage();
    if (flag == "--port" && value < 65536) {
      port = value;
    } else if (flag == "--lifetime-s" && value > 0 && value <= 3600) {
      lifetime_s = value;
    } else if (flag == "--object-bytes") {
      g_settings.object_bytes = value;
    } else if (flag == "--slow-first-byte-ms" && value <= 600000) {
      g_settings.slow_first_byte_ms = static_cast<int>(value);
    } else if (flag == "--list-entries" && value <= 100000) {
      g_settings.list_entries = static_cast<int>(value);
    } else if (flag == "--list-pages" && value >= 1 && value <= 1000000) {
      g_settings.list_pages = static_cast<int>(value);
    } else if (flag == "--store-empty-pages" && value <= 1000) {
      g_store_empty_pages = value;
    } else if (flag == "--store-page-entries" && value >= 1 && value <= 5000) {
      g_store_page_entries = value;
    } else if (flag == "--store-ignore-prefix" && value <= 1) {
      g_store_ignore_prefix = value == 1;
    } else if (flag == "--list-body-faults" && value <= 1) {
      g_settings.list_body_faults = value == 1;
    } else {
      return Usage();
    }
  }

  int listener = Listen(static_cast<uint16_t>(port));
  if (listener < 0) return 1;
  unsigned bound_port = WritePortFile(listener, port_file);
  // The silent port: accepts, then never reads or answers (a stalled TLS handshake, a server
  // that does not read).
  int silent = silent_port_file.empty() ? -1 : Listen(0);
  if (!silent_port_file.empty() && silent < 0) return 1;
  if (silent >= 0) WritePortFile(silent, silent_port_file);
  std::fprintf(stderr, "fault_server: listening on 127.0.0.1:%u for at most %llu s\n", bound_port,
               static_cast<unsigned long long>(lifetime_s));

  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(lifetime_s);
  int one = 1;
  while (!g_stop && std::chrono::steady_clock::now() < deadline) {
    pollfd p[2] = {{listener, POLLIN, 0}, {silent, POLLIN, 0}};
    if (poll(p, silent >= 0 ? 2 : 1, 100) <= 0) continue;
    for (int i = 0; i < 2; ++i) {
      if (!(p[i].revents & POLLIN)) continue;
      int fd = accept4(p[i].fd, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) continue;
      if (g_connections.load() >= kMaxConnections) {
        close(fd);  // bounded threads: refuse rather than grow
        continue;
      }
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      ++g_connections;
      if (i == 1) ++g_silent_connections;
      std::thread(i == 0 ? Serve : HoldSilently, fd).detach();
    }
  }
  g_stop = 1;
  close(listener);
  if (silent >= 0) close(silent);
  // Give connection threads a moment to notice the stop flag (they poll every 50-100 ms).
  for (int i = 0; i < 20 && g_connections.load() > 0; ++i) usleep(10000);
  std::fprintf(stderr, "fault_server: %s\n", StatsJson().c_str());
  std::fflush(stderr);
  _exit(0);  // detached threads may still be blocked in send(); do not run destructors
}
