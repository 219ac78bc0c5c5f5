#include "probes/object_discovery.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <random>
#include <thread>

#include "core/redact.h"
#include "transport/blob_limits.h"
#include "transport/list_blobs_xml.h"

namespace feedcheck {
namespace {

std::string XmlUnescape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out.push_back(s[i]);
      continue;
    }
    size_t semi = s.find(';', i);
    std::string_view entity = semi == std::string_view::npos ? "" : s.substr(i + 1, semi - i - 1);
    if (entity == "amp")
      out.push_back('&');
    else if (entity == "lt")
      out.push_back('<');
    else if (entity == "gt")
      out.push_back('>');
    else if (entity == "quot")
      out.push_back('"');
    else if (entity == "apos")
      out.push_back('\'');
    else {
      out.push_back('&');
      continue;
    }
    i = semi;
  }
  return out;
}

std::string_view Element(std::string_view s, std::string_view name) {
  std::string open = "<" + std::string(name) + ">";
  std::string close = "</" + std::string(name) + ">";
  size_t b = s.find(open);
  if (b == std::string_view::npos) return {};
  b += open.size();
  size_t e = s.find(close, b);
  return e == std::string_view::npos ? std::string_view{} : s.substr(b, e - b);
}

HttpResponse Send(const HttpProbeEnv& env, HttpClient* client, BudgetTracker* budget,
                  HttpRequest request, uint64_t expected_bytes, bool* admitted) {
  *admitted = budget->TryStart(expected_bytes);
  if (!*admitted) return {};
  request.timeout_s = budget->RequestTimeout(request.timeout_s);
  request.connect_timeout_s = std::min(request.connect_timeout_s, request.timeout_s);
  HttpResponse r = client->Perform(request);
  budget->Finish(expected_bytes, r.body_bytes);
  (void)env;
  return r;
}

// Send, retried on throttling and transient faults with RetryPolicy's backoff, never past the
// budget's deadline. Failed attempts that are retried are counted in `errors` (the caller
// counts the last one), so a 503 on the first request no longer ends the probe at once.
HttpResponse SendWithRetries(const HttpProbeEnv& env, HttpClient* client, BudgetTracker* budget,
                             ErrorTally* errors, const HttpRequest& request,
                             uint64_t expected_bytes, bool* admitted) {
  RetryPolicy retry;
  std::minstd_rand rng(std::random_device{}());
  std::uniform_real_distribution<double> jitter(0, 1);
  for (int attempt = 0;; ++attempt) {
    HttpResponse r = Send(env, client, budget, request, expected_bytes, admitted);
    bool ok = r.status >= 200 && r.status < 300 && r.transport_error.empty();
    if (!*admitted || ok || attempt >= retry.max_retries || r.status == 404 ||
        !IsRetryable(ClassifyResponse(r))) {
      return r;
    }
    // At least the wait the server asked for; none past the budget's end.
    double delay_s = std::max(retry.DelaySeconds(attempt + 1, jitter(rng)), RetryAfterSeconds(r));
    if (delay_s >= budget->RemainingSeconds()) return r;
    errors->Add(r);
    ++errors->retries;
    std::this_thread::sleep_for(std::chrono::duration<double>(delay_s));
  }
}

// What went wrong after a status line arrived: the head or body broke off, or came too slowly.
std::string BrokenOffText(const HttpResponse& r) {
  return "answered HTTP " + std::to_string(r.status) + ", then " +
         (r.timed_out ? std::string("the answer did not complete in the time left (the server "
                                    "sends too slowly)")
                      : RedactText(r.transport_error));
}

// StatusText, and why a Retry-After was not waited for.
std::string AnswerText(const HttpResponse& r, const BudgetTracker& budget) {
  return StatusText(r) + RetryAfterNote(r, budget.RemainingSeconds());
}

// A List Blobs page never declares a DOCTYPE; one that does may define entities that expand
// to gigabytes (none is ever expanded here: such a page is refused whole).
bool DeclaresDoctype(const std::string& xml) { return xml.find("<!DOCTYPE") != std::string::npos; }

}  // namespace

ProbeStatus DiscoveryStatus(const DiscoveryResult& found) {
  return found.unreachable || found.missing ? ProbeStatus::kUnreachable : ProbeStatus::kFailed;
}

std::vector<ObjectInfo> ParseListBlobsPage(const std::string& xml, std::string* next_marker,
                                           std::vector<std::string>* invalid) {
  std::vector<ObjectInfo> out;
  std::string_view s = xml;
  size_t pos = 0;
  while ((pos = s.find("<Blob>", pos)) != std::string_view::npos) {
    size_t end = s.find("</Blob>", pos);
    if (end == std::string_view::npos) break;
    std::string_view blob = s.substr(pos, end - pos);
    ObjectInfo info;
    info.name = XmlUnescape(Element(blob, "Name"));
    std::string_view len = Element(blob, "Content-Length");
    std::from_chars(len.data(), len.data() + len.size(), info.size_bytes);
    if (!IsPlausibleBlobSize(info.size_bytes)) {
      if (invalid) invalid->push_back(info.name + ": " + ImplausibleSizeMessage(info.size_bytes));
      pos = end;
      continue;
    }
    if (!info.name.empty()) out.push_back(std::move(info));
    pos = end;
  }
  if (next_marker) *next_marker = XmlUnescape(Element(s, "NextMarker"));
  return out;
}

DiscoveryResult DiscoverObjects(const HttpProbeEnv& env, HttpClient* client, BudgetTracker* budget,
                                ErrorTally* errors, size_t max_objects) {
  DiscoveryResult result;
  const Target& t = env.target;
  bool admitted = false;
  bool maybe_prefix = t.is_azure() && (t.prefix.empty() || t.prefix.back() == '/');
  if (!maybe_prefix) {
    HttpRequest head = env.SignedRequest("HEAD", t.Url());
    head.timeout_s = 30;
    HttpResponse r = SendWithRetries(env, client, budget, errors, head, 0, &admitted);
    if (!admitted) {
      result.error = "budget exhausted before the target was reached";
      return result;
    }
    if (r.status == 200 && r.transport_error.empty()) {
      uint64_t size = 0;
      std::string len = r.Header("content-length");
      std::from_chars(len.data(), len.data() + len.size(), size);
      if (!IsPlausibleBlobSize(size)) {
        result.error = "HEAD " + t.Display() + ": " + ImplausibleSizeMessage(size);
        return result;
      }
      if (size == 0) {
        result.missing = true;
        result.error = "'" + t.Display() + "' is empty (Content-Length 0 or missing)";
        return result;
      }
      result.objects.push_back({t.prefix, t.Url(), size});
      return result;
    }
    if (!t.is_azure() && r.status != 0 && r.status != 404) {
      // Some servers refuse HEAD (a presigned GET URL answers 403, others 405): ask for the
      // first byte instead and read the size from Content-Range.
      HttpRequest first = env.SignedRequest("GET", t.Url(), {{"Range", "bytes=0-0"}});
      first.max_body_bytes = 1;
      HttpResponse g = Send(env, client, budget, first, 1, &admitted);
      uint64_t size = 0;
      std::string cr = g.Header("content-range");
      size_t slash = cr.rfind('/');
      if (admitted && g.status == 206 && slash != std::string::npos) {
        std::from_chars(cr.data() + slash + 1, cr.data() + cr.size(), size);
        if (size > 0 && IsPlausibleBlobSize(size)) {
          result.objects.push_back({t.prefix, t.Url(), size});
          return result;
        }
      }
    }
    errors->Add(r);
    if (r.status == 0) {
      result.unreachable = NoHttpAnswer(r);
      result.error = (result.unreachable ? "cannot reach " : "no answer from ") + t.Display() +
                     ": " + RedactText(r.transport_error);
      return result;
    }
    if (!r.transport_error.empty()) {
      // The server answered, but the answer broke off (a head over libcurl's limits, a bad
      // chunk, a trickle): a broken server, not a missing object (exit 4, not 3).
      result.error = "HEAD " + t.Display() + " " + BrokenOffText(r);
      return result;
    }
    if (!t.is_azure() || r.status != 404) {
      result.missing = r.status == 404;
      result.error = "HEAD " + t.Display() + " answered " + AnswerText(r, *budget);
      return result;
    }
  }
  // A prefix (or a blob name that does not exist as such): list what is under it.
  // A whole page (one request either way), so that in a prefix mixing many small files with a
  // few large ones the large ones are found too.
  // As many entries as fit in the byte budget, the longest names included (ListPageMaxBytes).
  int entries = std::max(1, ListPageEntriesFitting(budget->bytes_left()));
  std::string url =
      t.ContainerUrl() + "?restype=container&comp=list&maxresults=" + std::to_string(entries);
  if (!t.prefix.empty()) url += "&prefix=" + EncodeQueryValue(t.prefix);
  HttpRequest list = env.SignedRequest("GET", url);
  list.keep_body = true;
  list.max_body_bytes = ListPageMaxBytes(entries);
  HttpResponse r =
      SendWithRetries(env, client, budget, errors, list, list.max_body_bytes, &admitted);
  if (!admitted) {
    result.error = "budget exhausted before the listing";
    return result;
  }
  if (r.status != 200 || !r.transport_error.empty()) {
    errors->Add(r);
    result.unreachable = NoHttpAnswer(r);
    result.missing = r.status == 404 && r.transport_error.empty();
    result.error = "listing " + t.Display() + " failed: " +
                   (r.status == 0     ? RedactText(r.transport_error)
                    : r.status == 200 ? BrokenOffText(r)
                                      : AnswerText(r, *budget));
    return result;
  }
  if (DeclaresDoctype(r.body)) {
    ++errors->total;
    ++errors->by_class[ErrorClass::kClient];
    if (errors->first_message.empty()) errors->first_message = "a listing with a DOCTYPE";
    result.error = "listing " + t.Display() +
                   " failed: the List Blobs XML declares a DOCTYPE (entities it defines are never "
                   "expanded; Azure sends none)";
    return result;
  }
  std::vector<std::string> invalid;
  for (ObjectInfo& o : ParseListBlobsPage(r.body, nullptr, &invalid)) {
    if (o.size_bytes == 0) continue;
    o.url = t.ObjectUrl(o.name);
    result.objects.push_back(std::move(o));
  }
  if (result.objects.size() > max_objects) {
    // The largest ones: a read probe wants objects it can read whole blocks from.
    std::stable_sort(
        result.objects.begin(), result.objects.end(),
        [](const ObjectInfo& a, const ObjectInfo& b) { return a.size_bytes > b.size_bytes; });
    result.objects.resize(max_objects);
  }
  if (!invalid.empty())
    result.skipped = std::to_string(invalid.size()) + " blob" + (invalid.size() == 1 ? "" : "s") +
                     " skipped, first: " + invalid.front();
  if (result.objects.empty() && !invalid.empty()) {
    // The listing answered, with sizes no blob can have: a broken or hostile server (exit 4).
    result.error = "no readable blob under " + t.Display() + ": " + result.skipped;
  } else if (result.objects.empty()) {
    result.missing = true;
    result.error = "no non-empty blobs under " + t.Display();
  }
  return result;
}

}  // namespace feedcheck
