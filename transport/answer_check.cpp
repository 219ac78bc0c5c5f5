#include "transport/answer_check.h"

#include <fmt/format.h>
#include <strings.h>

#include <charconv>
#include <string_view>

namespace feedcheck {
namespace {

bool ParseU64(std::string_view text, uint64_t* out) {
  if (text.empty()) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

// "bytes=A-B" or "bytes=A-" from the request's Range or x-ms-range header.
bool RequestedRange(const HttpRequest& request, uint64_t* first, uint64_t* last, bool* open_end) {
  for (const auto& [name, value] : request.headers) {
    if (strcasecmp(name.c_str(), "range") != 0 && strcasecmp(name.c_str(), "x-ms-range") != 0)
      continue;
    std::string_view v = value;
    if (v.rfind("bytes=", 0) != 0) return false;
    v.remove_prefix(6);
    size_t dash = v.find('-');
    if (dash == std::string_view::npos || !ParseU64(v.substr(0, dash), first)) return false;
    *open_end = dash + 1 == v.size();
    return *open_end || (ParseU64(v.substr(dash + 1), last) && *last >= *first);
  }
  return false;
}

// A header value fit to quote in a message: a short token, else a description.
std::string Quotable(std::string_view value) {
  bool plain = !value.empty() && value.size() <= 32;
  for (char c : value)
    plain = plain && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == ' ' || c == '/' || c == '*' || c == ',');
  return plain ? std::string(value) : std::string("(unreadable)");
}

// "bytes X-Y/Z" or "bytes X-Y/*" with X <= Y.
bool ParseContentRange(std::string_view cr, uint64_t* x, uint64_t* y) {
  if (cr.rfind("bytes ", 0) != 0) return false;
  cr.remove_prefix(6);
  size_t dash = cr.find('-'), slash = cr.find('/');
  return dash != std::string_view::npos && slash != std::string_view::npos && dash < slash &&
         ParseU64(cr.substr(0, dash), x) && ParseU64(cr.substr(dash + 1, slash - dash - 1), y) &&
         *x <= *y;
}

}  // namespace

std::string AnswerMismatch(const HttpRequest& request, int status, const HttpHeaders& headers) {
  if (status < 200 || status > 299) return "";
  if (request.method == "HEAD" || status == 204) return "";  // no body follows
  uint64_t first = 0, last = 0;
  bool open_end = false;
  bool ranged = RequestedRange(request, &first, &last, &open_end);
  uint64_t announced = 0;
  const std::string* length = headers.Find("content-length");
  bool has_length = length && ParseU64(*length, &announced);
  const std::string* coding = headers.Find("content-encoding");
  if (coding && !coding->empty() && strcasecmp(coding->c_str(), "identity") != 0) {
    // A blob saved with a Content-Encoding is served as stored, with that header: its bytes are
    // still exactly the ones asked for. Anything else was encoded on the way (a proxy, a
    // hostile server): not the object's bytes.
    uint64_t exact = ranged && !open_end             ? last - first + 1
                     : !ranged && !request.keep_body ? request.max_body_bytes
                                                     : 0;
    if (exact == 0)
      return fmt::format(
          "the server encoded its answer (Content-Encoding: {}) though no encoding was asked "
          "for: those bytes are not the ones asked for",
          Quotable(*coding));
    if (!has_length || announced != exact)
      return fmt::format(
          "the server encoded its answer (Content-Encoding: {}) though no encoding was asked "
          "for, into {} instead of the {} bytes asked for: those bytes are not the object's",
          Quotable(*coding),
          has_length ? fmt::format("{} bytes", announced) : std::string("an unannounced length"),
          exact);
  }
  if (has_length && announced > request.max_body_bytes) {
    if (ranged && status == 200)
      return fmt::format(
          "the server ignored the Range: HTTP 200 announcing {} bytes for a {}-byte range",
          announced, open_end ? request.max_body_bytes : last - first + 1);
    return fmt::format("the server announced {} bytes where at most {} were asked for", announced,
                       request.max_body_bytes);
  }
  if (status != 206 || !ranged) return "";
  const std::string* content_range = headers.Find("content-range");
  // Formatted only for a message: a healthy answer allocates nothing here.
  auto asked = [&] {
    return open_end ? fmt::format("{}-", first) : fmt::format("{}-{}", first, last);
  };
  if (!content_range) return fmt::format("HTTP 206 without a Content-Range, for bytes {}", asked());
  // "bytes X-Y/Z" or "bytes X-Y/*": the start must be the one asked for, the end no later.
  uint64_t x = 0, y = 0;
  bool well_formed = ParseContentRange(*content_range, &x, &y);
  if (!well_formed)
    return fmt::format("HTTP 206 with a malformed Content-Range ({}), for bytes {}",
                       Quotable(*content_range), asked());
  if (x != first || (!open_end && y > last))
    return fmt::format(
        "the server sent bytes {}-{} for a request of bytes {} (its Content-Range disagrees with "
        "the Range)",
        x, y, asked());
  if (has_length && announced != y - x + 1)
    return fmt::format(
        "HTTP 206 announcing {} bytes for its Content-Range of bytes {}-{} ({} bytes): the body "
        "is not the range it claims",
        announced, x, y, y - x + 1);
  return "";
}

std::string ShortAnswer(const HttpRequest& request, const HttpResponse& response) {
  if (response.status != 206 || request.method == "HEAD" || !response.transport_error.empty())
    return "";
  const std::string* content_range = response.headers.Find("content-range");
  uint64_t x = 0, y = 0;
  if (!content_range || !ParseContentRange(*content_range, &x, &y)) return "";
  if (response.body_bytes >= y - x + 1) return "";
  return fmt::format(
      "HTTP 206 ended after {} of the {} bytes its Content-Range claims (bytes {}-{}): a short "
      "body",
      response.body_bytes, y - x + 1, x, y);
}

}  // namespace feedcheck
