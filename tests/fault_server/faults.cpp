#include "tests/fault_server/faults.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace feedcheck::fault_server {
namespace {

// The messages Azure Storage sends with 503 ServerBusy; the probes classify by them
// (Azure ML docs, "Access data in a job", section "Storage load": egress vs request-rate
// throttling).
constexpr std::string_view kEgressMessage = "Egress is over the account limit.";
constexpr std::string_view kOpsMessage = "Operations per second is over the account limit.";
constexpr std::string_view kBusyMessage = "The server is busy.";

std::string FaultIn(const std::string& path) {
  size_t at = path.find("/fault-");
  if (at == std::string::npos) return "";
  size_t start = at + 7;
  size_t end = path.find('/', start);
  return path.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// The object's name after the fault segment, e.g. "blob-3.bin".
std::string LastSegment(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool IsList(const Request& r) { return r.query.find("comp=list") != std::string::npos; }

// The page a List Blobs request asks for: 0 without a marker, k for "marker=page-k".
int ListPage(const Request& r) {
  size_t at = r.query.find("marker=page-");
  if (at == std::string::npos || (at > 0 && r.query[at - 1] != '&')) return 0;
  return std::atoi(r.query.c_str() + at + 12);
}

std::string PercentEncode(const std::string& text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

Plan AzureError(int status, std::string reason, std::string code, std::string_view message) {
  Plan p;
  p.status = status;
  p.reason = std::move(reason);
  p.headers = {{"Content-Type", "application/xml"},
               {"x-ms-error-code", code},
               {"x-ms-request-id", "00000000-0000-0000-0000-000000000000"}};
  p.body = "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>" + code + "</Code><Message>" +
           std::string(message) +
           "\nRequestId:00000000-0000-0000-0000-000000000000\n"
           "Time:2026-11-22T00:00:00.0000000Z</Message></Error>";
  p.content_length = p.body.size();
  return p;
}

// What a hostile listing puts in its entries (the second-pass safety faults).
struct ListShape {
  std::string size_text;     ///< Content-Length text; empty: the object size
  std::string name_infix;    ///< inserted into every name ("\xff\xfe" for invalid UTF-8)
  std::string name_prefix;   ///< before every name ("../../escape/" to leave the container)
  size_t name_chars = 0;     ///< pad names to this length (long names); 0: as they are
  std::string next_marker;   ///< a NextMarker that never changes; empty: page-(k+1)
  bool marker_loop = false;  ///< pages 0, 1, 2, then page 2 points back at page 1
};

std::string EntryName(int index, const ListShape& shape) {
  std::string name = shape.name_prefix + "blob-" + shape.name_infix + std::to_string(index);
  if (shape.name_chars > name.size() + 4)
    name += std::string(shape.name_chars - name.size() - 4, 'n');
  return name + ".bin";
}

std::string ListXml(const std::string& container, int entries, uint64_t object_bytes,
                    bool truncated, int page, int pages, const ListShape& shape = {}) {
  std::string xml =
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>"
      "<EnumerationResults ServiceEndpoint=\"http://127.0.0.1/\" ContainerName=\"" +
      container + "\"><MaxResults>5000</MaxResults><Blobs>";
  for (int i = 0; i < entries; ++i) {
    xml += "<Blob><Name>" + EntryName(page * entries + i, shape) +
           "</Name><Properties><Content-Length>" +
           (shape.size_text.empty() ? std::to_string(object_bytes) : shape.size_text) +
           "</Content-Length><BlobType>BlockBlob</BlobType></Properties></Blob>";
  }
  if (!shape.next_marker.empty())
    xml += "</Blobs><NextMarker>" + shape.next_marker + "</NextMarker>";
  else if (shape.marker_loop)
    xml += "</Blobs><NextMarker>page-" + std::to_string(page == 2 ? 1 : page + 1) + "</NextMarker>";
  else
    xml += page + 1 < pages
               ? "</Blobs><NextMarker>page-" + std::to_string(page + 1) + "</NextMarker>"
               : std::string("</Blobs><NextMarker />");
  xml += "</EnumerationResults>";
  // Cut inside an element, as a connection dropped by a proxy would.
  if (truncated) xml.resize(xml.size() * 2 / 3);
  return xml;
}

// "bytes=A-B" / "bytes=A-" within [0, size); false when absent or unsatisfiable.
bool ParseRange(const std::string& header, uint64_t size, uint64_t* first, uint64_t* last) {
  if (header.rfind("bytes=", 0) != 0 || size == 0) return false;
  const char* s = header.c_str() + 6;
  char* end = nullptr;
  unsigned long long a = std::strtoull(s, &end, 10);
  if (end == s || *end != '-') return false;
  const char* b_start = end + 1;
  unsigned long long b = size - 1;
  if (*b_start != '\0') {
    b = std::strtoull(b_start, &end, 10);
    if (end == b_start) return false;
  }
  if (a >= size || b < a) return false;
  *first = a;
  *last = b >= size ? size - 1 : b;
  return true;
}

Plan HealthyObject(const Request& r, const Settings& s) {
  Plan p;
  p.head = r.method == "HEAD";
  p.headers = {{"Content-Type", "application/octet-stream"},
               {"Accept-Ranges", "bytes"},
               {"ETag", "\"0x8DCFAULTSERVER\""},
               {"Last-Modified", "Sun, 22 Nov 2026 00:00:00 GMT"},
               {"x-ms-blob-type", "BlockBlob"}};
  uint64_t first = 0, last = 0;
  if (!r.range.empty() && ParseRange(r.range, s.object_bytes, &first, &last)) {
    p.status = 206;
    p.reason = "Partial Content";
    p.headers.push_back({"Content-Range", "bytes " + std::to_string(first) + "-" +
                                              std::to_string(last) + "/" +
                                              std::to_string(s.object_bytes)});
    p.synthetic_offset = first;
    p.synthetic_bytes = last - first + 1;
  } else if (!r.range.empty()) {
    return AzureError(416, "Range Not Satisfiable", "InvalidRange",
                      "The range specified is invalid for the current size of the resource.");
  } else {
    p.synthetic_bytes = s.object_bytes;
  }
  p.content_length = p.synthetic_bytes;
  return p;
}

Plan PlanWithBody(const Request& r, const Settings& s);

}  // namespace

const std::vector<std::string>& FaultNames() {
  static const std::vector<std::string> names = {
      "busy-egress", "busy-ops", "busy-server", "timeout500", "reset", "stall", "wrong-length",
      "truncated-list", "forbidden-some", "redirect-loop", "slow-first-byte", "forbidden",
      // The second safety pass: hostile servers and odd credentials.
      "list-only", "huge-size", "bad-utf8", "long-names", "echo-secret", "escape", "markdown",
      "endless-list", "big-206", "stuck-marker", "dotdot",
      // Broken response heads.
      "huge-header", "endless-headers", "not-http", "bad-chunked", "trickle",
      // The third pass: answers that contradict the request, and listings that never end.
      "ignore-range", "range-mismatch", "gzip", "redirect-away", "retry-after", "marker-loop",
      "entity-bomb", "whitespace-list",
      // 206s whose body is shorter than their Content-Range: announced (Content-Length: 0) or
      // not (chunked, no chunk at all).
      "empty-206", "short-206"};
  return names;
}

Plan PlanFor(const Request& r, const Settings& s) {
  Plan p = PlanWithBody(r, s);
  if (r.method == "HEAD") p.head = true;  // headers (with the body's length) only
  std::string fault = FaultIn(r.path);
  if (fault == "huge-header") p.head_fault = HeadFault::kHugeHeader;
  if (fault == "endless-headers") p.head_fault = HeadFault::kEndlessHeaders;
  if (fault == "not-http") p.head_fault = HeadFault::kNotHttp;
  if (fault == "bad-chunked") p.head_fault = HeadFault::kBadChunked;
  if (fault == "trickle") p.trickle_ms = 50;
  return p;
}

namespace {

Plan PlanWithBody(const Request& r, const Settings& s) {
  std::string fault = FaultIn(r.path);
  if (fault.empty() && r.path.find("/escape/") != std::string::npos) {
    // Reached only by a request that left its container ("dotdot" names normalised away).
    return AzureError(418, "Left The Container", "LeftTheContainer", "A path left its container.");
  }
  bool even = r.sequence % 2 == 0;
  if (fault == "flaky-egress" && even) {
    return AzureError(503, "Service Unavailable", "ServerBusy", kEgressMessage);
  }
  if (fault == "flaky-ops" && even) {
    return AzureError(503, "Service Unavailable", "ServerBusy", kOpsMessage);
  }
  if (fault == "busy-egress")
    return AzureError(503, "Service Unavailable", "ServerBusy", kEgressMessage);
  if (fault == "busy-ops") return AzureError(503, "Service Unavailable", "ServerBusy", kOpsMessage);
  if (fault == "busy-server")
    return AzureError(503, "Service Unavailable", "ServerBusy", kBusyMessage);
  if (fault == "timeout500") {
    return AzureError(500, "Internal Server Error", "OperationTimedOut",
                      "Operation could not be completed within the specified time.");
  }
  if (fault == "redirect-loop") {
    Plan p;
    p.status = 302;
    p.reason = "Found";
    p.headers = {{"Location", r.path + (r.query.empty() ? "" : "?" + r.query)}};
    return p;
  }
  if (fault == "redirect-away") {
    // A 307 to another server, the whole request target (SAS included) echoed in Location.
    Plan p;
    p.status = 307;
    p.reason = "Temporary Redirect";
    p.headers = {{"Location", s.redirect_to + r.path + (r.query.empty() ? "" : "?" + r.query)}};
    return p;
  }
  if (fault == "retry-after") {
    // Throttled, and told to come back tomorrow: a probe must not sleep past its budget.
    Plan p = AzureError(429, "Too Many Requests", "ServerBusy", kBusyMessage);
    p.headers.push_back({"Retry-After", "86400"});
    return p;
  }
  if (fault == "forbidden") {  // every request refused, listings too (no permission at all)
    return AzureError(403, "Forbidden", "AuthorizationFailure",
                      "This request is not authorized to perform this operation.");
  }
  if (fault == "forbidden-some") {
    // Objects whose name holds an odd digit are forbidden; the rest are served. A listing of the
    // container works, so a probe meets the 403s only on the objects.
    std::string name = LastSegment(r.path);
    bool odd = false;
    for (char c : name) odd = odd || (c >= '0' && c <= '9' && (c - '0') % 2 == 1);
    if (!IsList(r) && odd) {
      return AzureError(403, "Forbidden", "AuthorizationPermissionMismatch",
                        "This request is not authorized to perform this operation using this "
                        "permission.");
    }
  }
  if (fault == "echo-secret") {
    // Some services echo the request into the error code: here the whole request target,
    // percent-encoded, SAS signature included, in the header and in <Code>.
    std::string echoed = PercentEncode(r.path + (r.query.empty() ? "" : "?" + r.query));
    return AzureError(403, "Forbidden", echoed, "Echoed: " + r.path + "?" + r.query);
  }
  if (fault == "escape") {
    // Terminal control sequences: an OSC window title, a colour, a cursor move, a bell.
    return AzureError(403, "Forbidden", "Denied\x1b]0;pwned\x07\x1b[31mRED\x1b[2J",
                      "\x1b]8;;http://evil.example/\x07"
                      "click\x1b]8;;\x07");
  }
  if (fault == "markdown") {
    // No header: the code comes from <Code>, with backticks and a fence to break a code span.
    Plan p = AzureError(403, "Forbidden", "Denied` **bold** ```\n# injected\n```", "md");
    p.headers.erase(p.headers.begin() + 1);  // x-ms-error-code
    return p;
  }
  if (fault == "list-only" && !IsList(r)) {
    // A SAS with sp=l: the listing works, every read is refused with a body.
    return AzureError(403, "Forbidden", "AuthorizationPermissionMismatch",
                      "This request is not authorized to perform this operation using this "
                      "permission.");
  }
  if (fault == "bad-utf8" && !IsList(r) && even) {
    // Every second read throttled with an error code that is not UTF-8: retried, counted.
    return AzureError(503, "Service Unavailable",
                      "Server\xc3\x28"
                      "Busy\xff",
                      kBusyMessage);
  }
  if (IsList(r)) {
    Plan p;
    p.headers = {{"Content-Type", "application/xml"}};
    ListShape shape;
    if (fault == "huge-size") shape.size_text = "18446744073709551615";
    if (fault == "bad-utf8") shape.name_infix = "\xff\xfe\xc3\x28-";
    if (fault == "long-names") shape.name_chars = 1024;
    if (fault == "stuck-marker") shape.next_marker = "stuck";
    if (fault == "dotdot") shape.name_prefix = "../../escape/";
    shape.marker_loop = fault == "marker-loop";
    p.body = ListXml(LastSegment(r.path), s.list_entries, s.object_bytes, fault == "truncated-list",
                     ListPage(r), shape.marker_loop ? 3 : s.list_pages, shape);
    if (fault == "entity-bomb") {
      // The billion laughs: ten levels of ten references, a few GB once expanded, used in the
      // first name.
      std::string dtd = "<!DOCTYPE EnumerationResults [<!ENTITY lol0 \"lol\">";
      for (int level = 1; level < 10; ++level) {
        dtd += "<!ENTITY lol" + std::to_string(level) + " \"";
        for (int i = 0; i < 10; ++i) dtd += "&lol" + std::to_string(level - 1) + ";";
        dtd += "\">";
      }
      dtd += "]>";
      p.body.insert(p.body.find("<EnumerationResults"), dtd);
      p.body.insert(p.body.find("<Name>") + 6, "&lol9;");
    }
    if (fault == "whitespace-list") {
      p.pad_at = p.body.find("<Blobs>") + 7;
      p.pad_bytes = kListWhitespaceBytes;
    }
    if (fault == "gzip" && s.list_body_faults) p.headers.push_back({"Content-Encoding", "gzip"});
    if (fault == "endless-list") {
      // An opening that never closes, then the same entries forever, chunked.
      p.body = ListXml(LastSegment(r.path), s.list_entries, s.object_bytes, false, 0, 1, shape);
      p.body.resize(p.body.find("</Blobs>"));
      p.body_fault = BodyFault::kEndlessChunked;
      p.content_length = 0;
      p.head = r.method == "HEAD";
      return p;
    }
    p.content_length = p.body.size() + p.pad_bytes;
    p.head = r.method == "HEAD";
    if (fault == "slow-first-byte") p.first_byte_delay_ms = s.slow_first_byte_ms;
    if (s.list_body_faults) {
      if (fault == "reset") p.body_fault = BodyFault::kResetMidBody;
      if (fault == "stall") p.body_fault = BodyFault::kStallMidBody;
      if (fault == "wrong-length") {
        p.body_fault = BodyFault::kShortBody;
        p.content_length = p.body.size() + 1024;
      }
    }
    return p;
  }
  Plan p = HealthyObject(r, s);
  if (p.status >= 300) return p;
  if (fault == "huge-size") {
    // An impossible size: 2^64-1 bytes (HEAD answers it; a read gets a healthy range).
    if (r.method == "HEAD") p.content_length = UINT64_MAX;
    return p;
  }
  if (fault == "ignore-range" && p.status == 206) {
    // The Range ignored: 200 and the whole object, announced as 50 GiB, sent until the client
    // hangs up.
    p.status = 200;
    p.reason = "OK";
    std::erase_if(p.headers, [](const auto& h) { return h.first == "Content-Range"; });
    p.synthetic_offset = 0;
    p.synthetic_bytes = kIgnoredRangeObjectBytes;
    p.content_length = p.synthetic_bytes;
    return p;
  }
  if (fault == "range-mismatch" && p.status == 206) {
    // As many bytes as asked for, but from the next byte on, and a Content-Range that says so.
    uint64_t first = p.synthetic_offset, length = p.synthetic_bytes;
    uint64_t shifted = first + length < s.object_bytes ? first + 1 : first - (first > 0);
    for (auto& [name, value] : p.headers)
      if (name == "Content-Range")
        value = "bytes " + std::to_string(shifted) + "-" + std::to_string(shifted + length - 1) +
                "/" + std::to_string(s.object_bytes);
    p.synthetic_offset = shifted;
    return p;
  }
  if (fault == "gzip" && r.method != "HEAD") {
    // Content-Encoding nobody asked for (no Accept-Encoding): a quarter of the bytes, which are
    // not the object's.
    p.headers.push_back({"Content-Encoding", "gzip"});
    p.synthetic_bytes = std::max<uint64_t>(1, p.synthetic_bytes / 4);
    p.content_length = p.synthetic_bytes;
    return p;
  }
  if ((fault == "empty-206" || fault == "short-206") && p.status == 206) {
    // The Content-Range says the range was sent; the body is empty.
    p.synthetic_bytes = 0;
    p.content_length = 0;
    if (fault == "short-206") p.body_fault = BodyFault::kChunked;
    return p;
  }
  if (fault == "big-206" && p.status == 206) {
    // 64 times the requested range (Content-Length matching the larger body).
    p.synthetic_bytes *= 64;
    p.content_length = p.synthetic_bytes;
    return p;
  }
  if (fault == "reset") p.body_fault = BodyFault::kResetMidBody;
  if (fault == "stall") p.body_fault = BodyFault::kStallMidBody;
  if (fault == "wrong-length") {
    // The head is right (the length asked for); the body stops 1 KiB short, then the connection
    // closes: bytes announced but never sent.
    p.body_fault = BodyFault::kShortBody;
    if (r.method != "HEAD") p.synthetic_bytes -= std::min<uint64_t>(1024, p.synthetic_bytes / 2);
  }
  if (fault == "slow-first-byte") p.first_byte_delay_ms = s.slow_first_byte_ms;
  return p;
}

}  // namespace

}  // namespace feedcheck::fault_server
