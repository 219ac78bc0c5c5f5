#include "transport/http_errors.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/redact.h"

namespace feedcheck {
namespace {

std::string Between(const std::string& s, const std::string& open, const std::string& close) {
  size_t b = s.find(open);
  if (b == std::string::npos) return "";
  b += open.size();
  size_t e = s.find(close, b);
  return e == std::string::npos ? "" : s.substr(b, e - b);
}

}  // namespace

std::string_view ErrorClassName(ErrorClass c) {
  switch (c) {
    case ErrorClass::kNone:
      return "ok";
    case ErrorClass::kThrottledEgress:
      return "throttled_egress";
    case ErrorClass::kThrottledIngress:
      return "throttled_ingress";
    case ErrorClass::kThrottledRequests:
      return "throttled_requests";
    case ErrorClass::kServerBusy:
      return "server_busy";
    case ErrorClass::kTimeout:
      return "timeout";
    case ErrorClass::kTransport:
      return "transport";
    case ErrorClass::kClient:
      return "client_error";
    case ErrorClass::kServer:
      return "server_error";
  }
  return "unknown";
}

// Azure's error codes are short PascalCase words ("ServerBusy", "AuthorizationFailure"). The
// code becomes a fact key and is shown everywhere, so anything else a server puts there (an
// echoed URL with its SAS, control characters, markup, invalid UTF-8) is never passed on.
bool IsPlainErrorCode(std::string_view code) {
  return !code.empty() && code.size() <= 64 && std::all_of(code.begin(), code.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  });
}

std::string ErrorCodeOf(const HttpResponse& r) {
  std::string code = r.Header("x-ms-error-code");
  if (code.empty()) code = Between(r.body, "<Code>", "</Code>");
  if (code.empty() || IsPlainErrorCode(code)) return code;
  return std::string(kUnrecognizedErrorCode);
}

bool NoHttpAnswer(const HttpResponse& r) {
  return r.status == 0 && !r.stopped && (r.timing.connect_s <= 0 || !r.timed_out || r.tls_stalled);
}

double RetryAfterSeconds(const HttpResponse& r) {
  if (r.status != 429 && r.status != 503) return 0;
  std::string value = r.Header("retry-after");
  uint64_t seconds = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size()) return 0;
  return static_cast<double>(std::min<uint64_t>(seconds, 100ull * 365 * 86400));
}

std::string RetryAfterNote(const HttpResponse& r, double remaining_s) {
  double wait_s = RetryAfterSeconds(r);
  if (wait_s <= 0 || wait_s < remaining_s) return "";
  return ": that wait would pass the end of the time budget, so no retry";
}

namespace {

// "http://host:port" of a Location, when it is made of plain URL characters; else "".
std::string RedirectOrigin(const std::string& location) {
  size_t scheme_end = location.find("://");
  if (scheme_end == std::string::npos) return "";
  size_t end = location.find_first_of("/?#", scheme_end + 3);
  std::string origin = location.substr(0, end);
  bool plain = origin.size() <= 300 && std::all_of(origin.begin(), origin.end(), [](char c) {
                 return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '.' || c == '-' || c == ':' || c == '/' ||
                        c == '[' || c == ']';
               });
  return plain && origin.find('@') == std::string::npos ? origin : "";
}

}  // namespace

std::string StatusText(const HttpResponse& r) {
  std::string text = "HTTP " + std::to_string(r.status);
  std::string code = ErrorCodeOf(r);
  if (!code.empty()) text += " " + code;
  if (r.status >= 300 && r.status < 400) {
    std::string to = RedirectOrigin(r.Header("location"));
    text +=
        to.empty() ? " (a redirect, not followed)" : " (a redirect to " + to + ", not followed)";
  }
  double wait_s = RetryAfterSeconds(r);
  if (wait_s > 0) text += " (Retry-After " + std::to_string(static_cast<uint64_t>(wait_s)) + " s)";
  return text;
}

ErrorClass ClassifyResponse(const HttpResponse& r) {
  if (r.timed_out) return ErrorClass::kTimeout;
  // More body than was asked for: the server ignores the range or never ends a listing.
  // Retrying would only send more of it past the byte budget.
  if (r.over_cap || r.wrong_answer) return ErrorClass::kClient;
  // A cut-off body (reset, over the cap) is a transport fault even after a 2xx status line.
  if (!r.transport_error.empty() && r.status < 300) return ErrorClass::kTransport;
  if (r.status >= 200 && r.status < 300) return ErrorClass::kNone;
  if (r.status == 0) return ErrorClass::kTransport;
  std::string message = Between(r.body, "<Message>", "</Message>");
  if (r.status == 503) {
    if (message.find("Egress is over the account limit") != std::string::npos)
      return ErrorClass::kThrottledEgress;
    if (message.find("Ingress is over the account limit") != std::string::npos)
      return ErrorClass::kThrottledIngress;
    if (message.find("Operations per second is over the account limit") != std::string::npos)
      return ErrorClass::kThrottledRequests;
    return ErrorClass::kServerBusy;
  }
  if (r.status == 429) return ErrorClass::kServerBusy;
  if (r.status == 500) {
    std::string code = ErrorCodeOf(r);
    if (code == "OperationTimedOut" || code == "InternalError") return ErrorClass::kServerBusy;
    return ErrorClass::kServer;
  }
  return r.status >= 500 ? ErrorClass::kServer : ErrorClass::kClient;
}

bool IsRetryable(ErrorClass c) {
  switch (c) {
    case ErrorClass::kThrottledEgress:
    case ErrorClass::kThrottledIngress:
    case ErrorClass::kThrottledRequests:
    case ErrorClass::kServerBusy:
    case ErrorClass::kTimeout:
    case ErrorClass::kTransport:
    case ErrorClass::kServer:
      return true;
    case ErrorClass::kNone:
    case ErrorClass::kClient:
      return false;
  }
  return false;
}

ErrorClass ErrorTally::Add(const HttpResponse& r) {
  ErrorClass c = ClassifyResponse(r);
  if (c == ErrorClass::kNone) return c;
  ++total;
  ++by_class[c];
  if (r.wrong_answer || r.over_cap) ++wrong_answers;
  if (r.status > 0) ++by_status[r.status];
  std::string code = ErrorCodeOf(r);
  if (!code.empty()) ++by_code[code];
  if (first_message.empty()) {
    first_message = r.status ? StatusText(r) : std::string("no response");
    if (r.wrong_answer)  // its words name the status where it matters
      first_message = RedactText(r.transport_error);
    else if (!r.transport_error.empty())
      first_message += ": " + RedactText(r.transport_error);
  }
  return c;
}

void ErrorTally::Merge(const ErrorTally& o) {
  total += o.total;
  retries += o.retries;
  wrong_answers += o.wrong_answers;
  for (auto& [k, v] : o.by_class) by_class[k] += v;
  for (auto& [k, v] : o.by_status) by_status[k] += v;
  for (auto& [k, v] : o.by_code) by_code[k] += v;
  if (first_message.empty()) first_message = o.first_message;
}

void ErrorTally::AddFacts(FactSet* facts, const Provenance& p) const {
  auto n = [](uint64_t v) { return static_cast<double>(v); };
  facts->Set(NumberFact("probe.errors.total", n(total), Unit::kCount, p));
  facts->Set(NumberFact("probe.errors.retries", n(retries), Unit::kCount, p));
  facts->Set(NumberFact("probe.errors.throttled_egress", n(Count(ErrorClass::kThrottledEgress)),
                        Unit::kCount, p));
  facts->Set(NumberFact("probe.errors.throttled_requests", n(Count(ErrorClass::kThrottledRequests)),
                        Unit::kCount, p));
  facts->Set(
      NumberFact("probe.errors.server_busy", n(Count(ErrorClass::kServerBusy)), Unit::kCount, p));
  facts->Set(NumberFact("probe.errors.timeouts", n(Count(ErrorClass::kTimeout)), Unit::kCount, p));
  for (auto& [status, count] : by_status)
    facts->Set(
        NumberFact("probe.errors.http." + std::to_string(status), n(count), Unit::kCount, p));
  for (auto& [code, count] : by_code)
    facts->Set(NumberFact("probe.errors.code." + code, n(count), Unit::kCount, p));
}

double RetryPolicy::DelaySeconds(int attempt, double jitter01) const {
  double d = base_delay_s * std::pow(2.0, std::max(0, attempt - 1));
  d = std::min(d, max_delay_s);
  return d * (0.75 + 0.5 * std::clamp(jitter01, 0.0, 1.0));
}

}  // namespace feedcheck
