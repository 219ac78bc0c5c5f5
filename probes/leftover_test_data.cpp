#include "probes/leftover_test_data.h"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <map>

#include "core/redact.h"
#include "probes/budget_tracker.h"
#include "probes/cleanup_registry.h"
#include "probes/list_probe.h"
#include "probes/redact.h"
#include "probes/test_prefix_name.h"
#include "transport/http_errors.h"
#include "transport/list_blobs_xml.h"

namespace feedcheck {
namespace {

// The time in a test prefix ("data/feedcheck-test-...-1a2b3c4d/"): its last segment's.
std::time_t PrefixTime(const std::string& prefix) {
  std::string_view p = prefix;
  p.remove_suffix(1);
  size_t slash = p.rfind('/');
  auto name = ParseTestPrefixSegment(slash == std::string_view::npos ? p : p.substr(slash + 1));
  return name ? name->utc_s : 0;
}

// Sends one request through the budget; `admitted` false when the budget refused it.
HttpResponse Send(HttpClient* client, BudgetTracker* budget, HttpRequest request,
                  uint64_t expected_bytes, bool* admitted) {
  *admitted = budget->TryStart(expected_bytes);
  if (!*admitted) return {};
  request.timeout_s = budget->RequestTimeout(request.timeout_s);
  request.connect_timeout_s = std::min(request.connect_timeout_s, request.timeout_s);
  request.max_body_bytes = std::max<uint64_t>(expected_bytes, 1);
  HttpResponse r = client->Perform(request);
  budget->Finish(expected_bytes, r.body_bytes);
  return r;
}

}  // namespace

bool IsTestDataSegment(std::string_view s) { return ParseTestPrefixSegment(s).has_value(); }

std::string TestDataPrefixOf(std::string_view name) {
  size_t start = 0;
  while (start < name.size()) {
    size_t slash = name.find('/', start);
    if (slash == std::string_view::npos) return "";  // the last segment is the blob itself
    if (IsTestDataSegment(name.substr(start, slash - start)))
      return std::string(name.substr(0, slash + 1));
    start = slash + 1;
  }
  return "";
}

LeftoverCleanupResult CleanUpLeftoverTestData(const HttpProbeEnv& env,
                                              const LeftoverCleanupOptions& options) {
  LeftoverCleanupResult out;
  ProbeResult& result = out.result;
  result.probe = "cleanup";
  const Target& t = env.target;
  if (!t.is_azure() || t.kind == TargetKind::kDfs) {
    result.status = ProbeStatus::kFailed;
    result.message = "cleanup needs a Blob (or emulator) container URL";
    return out;
  }
  BudgetTracker budget(env.budget);
  auto client = env.make_client();
  std::map<std::string, LeftoverPrefix> found;
  std::vector<std::string> names;
  std::string marker, stop;
  int pages = 0;
  const std::time_t now = options.now_utc_s ? options.now_utc_s : std::time(nullptr);
  bool admitted = false;
  // 1. The whole listing first: nothing is deleted from a half-read listing's guesses.
  while (pages < options.max_pages) {
    ListProbeOptions lo;
    lo.max_results = std::max(1, ListPageEntriesFitting(budget.bytes_left()));
    HttpRequest req = env.SignedRequest("GET", ListPageUrl(t, lo, marker));
    req.keep_body = true;
    req.timeout_s = 60;
    HttpResponse r = Send(client.get(), &budget, req, ListPageMaxBytes(lo.max_results), &admitted);
    if (!admitted) {
      stop = "listing stopped: " + budget.stop_reason();
      break;
    }
    ++pages;
    if (r.status != 200 || !r.transport_error.empty()) {
      std::string code = ErrorCodeOf(r);
      stop = r.status
                 ? fmt::format("listing page {}: HTTP {}{}", pages, r.status,
                               code.empty() ? "" : " " + code)
                 : "listing page " + std::to_string(pages) + ": " + RedactText(r.transport_error);
      result.status =
          NoHttpAnswer(r) || r.status == 404 ? ProbeStatus::kUnreachable : ProbeStatus::kFailed;
      break;
    }
    ListPage page;
    std::string error;
    if (!ParseListBlobsXml(r.body, &page, &error)) {
      stop = "listing page " + std::to_string(pages) + ": " + error;
      result.status = ProbeStatus::kFailed;
      break;
    }
    for (const ListedEntry& e : page.entries) {
      // Only names under the prefix asked for, whatever the server sent (one that ignores
      // prefix= lists the whole container).
      if (e.name.compare(0, t.prefix.size(), t.prefix) != 0) {
        ++out.outside_prefix;
        continue;
      }
      std::string prefix = TestDataPrefixOf(e.name);
      if (prefix.empty()) continue;
      LeftoverPrefix& p = found[prefix];
      if (p.prefix.empty()) {
        p.prefix = prefix;
        double age_s = std::difftime(now, PrefixTime(prefix));
        p.recent = !options.force && age_s < kRecentTestPrefixS && age_s > -kRecentTestPrefixS;
      }
      ++p.blobs;
      p.bytes += e.size_bytes;
      ++out.blobs_found;
      if (p.recent) {
        ++out.blobs_skipped_recent;
      } else if (names.size() < options.max_blobs) {
        names.push_back(e.name);
      }
    }
    if (!stop.empty()) break;
    if (page.next_marker.empty()) {
      out.listing_complete = true;
      break;
    }
    if (page.next_marker == marker) {
      stop = "the listing's NextMarker did not change after page " + std::to_string(pages) +
             " (a broken or hostile server): stopped";
      result.status = ProbeStatus::kFailed;
      break;
    }
    marker = page.next_marker;
  }
  if (!out.listing_complete && stop.empty())
    stop = fmt::format("--max-pages {} reached before the end of the listing", options.max_pages);
  for (auto& [prefix, p] : found) out.prefixes.push_back(p);
  if (!out.listing_complete && !names.empty()) {
    // What a half-read listing shows cannot be trusted to be all of a prefix, nor only leftovers.
    stop += fmt::format(
        "; nothing was deleted: cleanup deletes only after reading the whole "
        "listing ({} test blobs seen so far)",
        names.size());
    names.clear();
  }
  const uint64_t unkept = out.blobs_found - out.blobs_skipped_recent - names.size();
  std::vector<std::string> notes;
  if (out.outside_prefix > 0)
    notes.push_back(fmt::format(
        "the listing held {} names outside the prefix '{}' (the server ignored prefix=): "
        "not touched",
        out.outside_prefix, t.prefix));
  if (out.blobs_skipped_recent > 0) {
    uint64_t recent_prefixes = 0;
    for (const LeftoverPrefix& p : out.prefixes) recent_prefixes += p.recent ? 1 : 0;
    notes.push_back(fmt::format(
        "skipped {} test prefixes ({} blobs) from the last 24 hours: a run may still be using "
        "them; pass --force to remove them too",
        recent_prefixes, out.blobs_skipped_recent));
  }
  if (out.listing_complete && unkept > 0)
    notes.push_back(fmt::format("more than {} test blobs: {} left for the next cleanup run",
                                options.max_blobs, unkept));
  for (const std::string& note : notes) stop += (stop.empty() ? "" : "; ") + note;

  // 2. Delete, unless a dry run. Only names under a test prefix were kept above.
  if (!options.dry_run) {
    for (const std::string& name : names) {
      if (StopRequested()) {
        stop = StopReason() + (stop.empty() ? "" : "; " + stop);
        break;
      }
      HttpRequest del = env.SignedRequest("DELETE", t.ObjectUrl(name));
      del.timeout_s = 30;
      HttpResponse r = Send(client.get(), &budget, del, 0, &admitted);
      if (!admitted) {
        stop = "deleting stopped: " + budget.stop_reason() + (stop.empty() ? "" : "; " + stop);
        break;
      }
      if (r.status == 202 || r.status == 200 || r.status == 404) {
        ++out.blobs_deleted;
      } else {
        ++out.delete_failures;
        if (out.delete_failures == 1) {
          std::string code = ErrorCodeOf(r);
          result.message = r.status ? fmt::format("Delete Blob: HTTP {}{}", r.status,
                                                  code.empty() ? "" : " " + code)
                                    : "Delete Blob: " + RedactText(r.transport_error);
        }
      }
    }
  }
  result.requests_sent = budget.requests();
  result.bytes_received = budget.received_bytes();
  result.elapsed_s = budget.ElapsedSeconds();
  const uint64_t to_remove = out.blobs_found - out.blobs_skipped_recent;
  bool all_done = options.dry_run ? out.listing_complete
                                  : out.listing_complete && out.blobs_deleted == to_remove;
  if (result.status == ProbeStatus::kOk) {
    if (pages == 0 || (!out.listing_complete && out.blobs_found == 0)) {
      result.status = ProbeStatus::kFailed;
    } else if (out.delete_failures > 0 && out.blobs_deleted == 0) {
      result.status = ProbeStatus::kFailed;
    } else if (!all_done) {
      result.status = ProbeStatus::kPartial;
    }
  }
  if (!stop.empty()) result.message = result.message.empty() ? stop : result.message + "; " + stop;
  return out;
}

}  // namespace feedcheck
