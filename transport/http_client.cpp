#include "transport/http_client.h"

#include <algorithm>
#include <cstdio>

#include "core/ascii_text.h"

namespace feedcheck {
namespace {

char LowerAscii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool EqualsLowered(std::string_view lower, std::string_view raw) {
  if (lower.size() != raw.size()) return false;
  for (size_t i = 0; i < raw.size(); ++i)
    if (lower[i] != LowerAscii(raw[i])) return false;
  return true;
}

}  // namespace

void HttpHeaders::Set(std::string_view raw_name, std::string_view value) {
  raw_name = Trim(raw_name);
  value = Trim(value);
  for (size_t i = 0; i < used_; ++i) {
    if (EqualsLowered(entries_[i].first, raw_name)) {
      entries_[i].second.assign(value);
      return;
    }
  }
  Entry& e = NextSlot();
  e.first.assign(raw_name);
  for (char& c : e.first) c = LowerAscii(c);
  e.second.assign(value);
}

const std::string* HttpHeaders::Find(std::string_view lower_name) const {
  for (size_t i = 0; i < used_; ++i)
    if (entries_[i].first == lower_name) return &entries_[i].second;
  return nullptr;
}

void HttpResponse::Clear() {
  status = 0;
  transport_error.clear();
  timed_out = false;
  stopped = false;
  over_cap = false;
  wrong_answer = false;
  tls_stalled = false;
  headers.clear();
  body.clear();
  body_bytes = 0;
  timing = HttpTiming{};
  reused_connection = false;
}

std::string HeadersTooLargeText(std::string_view limit) {
  return "response headers too large (over " + std::string(limit) +
         "): a broken proxy or a hostile server";
}

std::string OverCapText(uint64_t max_body_bytes) {
  return "the server sent more than the " + std::to_string(max_body_bytes) +
         " bytes asked for (cut there)";
}

std::string TlsStalledText(double seconds) {
  char text[160];
  std::snprintf(text, sizeof text,
                "no TLS handshake within %.1f s: the server accepted the connection and then said "
                "nothing (not an https port, or a stalled server)",
                seconds);
  return text;
}

namespace {
constexpr uint64_t kErrorBodyBytes = 64 * 1024;  // enough for Azure's error XML
}  // namespace

void HttpResponse::TakeBody(const HttpRequest& request, const char* data, size_t n) {
  // Only a success body is data: a 403's error XML is not a byte read from the object.
  if (request.body_counter && status / 100 == 2)
    request.body_counter->fetch_add(n, std::memory_order_relaxed);
  if (request.keep_body) {
    body.append(data, n);
  } else if (status >= 400 && body.size() < kErrorBodyBytes) {
    // Error bodies are kept for classification (Azure's <Message> names the limit).
    size_t room = static_cast<size_t>(kErrorBodyBytes - body.size());
    body.append(data, std::min(room, n));
  }
}

}  // namespace feedcheck
