#include "probes/list_probe.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <random>
#include <thread>

#include "core/diagnostic_codes.h"
#include "core/latency_histogram.h"
#include "core/plural.h"
#include "core/redact.h"
#include "probes/budget_tracker.h"
#include "probes/cleanup_registry.h"
#include "probes/dataset_shape.h"
#include "transport/http_errors.h"
#include "transport/list_blobs_xml.h"

namespace feedcheck {

namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// A page reserves the most its entries can take (ListPageMaxBytes: the longest names included)
// and a bigger answer is refused: a page starts only when the whole of it fits in --max-bytes,
// so the limit holds as the server counts it too. With little budget left, pages ask for fewer
// entries rather than stop.
int PageEntries(int max_results, uint64_t bytes_left) {
  return std::max(1,
                  std::min(std::clamp(max_results, 1, 5000), ListPageEntriesFitting(bytes_left)));
}

// Names relative to the listed directory: "train/a/b.jpg" under prefix "train/" is "a/b.jpg".
std::string_view Relative(std::string_view name, std::string_view dir_prefix) {
  if (name.substr(0, dir_prefix.size()) == dir_prefix) name.remove_prefix(dir_prefix.size());
  return name;
}

// "probe.list.entries_by_time": entries listed so far against seconds since the first request,
// from (0, 0). Its slope is entries per second, so one page still draws a line.
Series ListedSeries() {
  return Series{"probe.list.entries_by_time",
                "entries listed",
                "time since the first request",
                Unit::kSeconds,
                "entries listed",
                Unit::kCount,
                {{0, 0}}};
}

}  // namespace

std::string ListPageUrl(const Target& target, const ListProbeOptions& options,
                        const std::string& marker) {
  int n = std::clamp(options.max_results, 1, 5000);
  std::string url;
  if (target.kind == TargetKind::kDfs) {
    url = target.dfs_endpoint + "/" + EncodePath(target.container) +
          "?resource=filesystem&recursive=" + (options.delimiter.empty() ? "true" : "false") +
          "&maxResults=" + std::to_string(n);
    std::string dir = target.prefix;
    while (!dir.empty() && dir.back() == '/') dir.pop_back();
    if (!dir.empty()) url += "&directory=" + EncodeQueryValue(dir);
    if (!marker.empty()) url += "&continuation=" + EncodeQueryValue(marker);
    return url;
  }
  url = target.ContainerUrl() + "?restype=container&comp=list&maxresults=" + std::to_string(n);
  if (!target.prefix.empty()) url += "&prefix=" + EncodeQueryValue(target.prefix);
  if (!options.delimiter.empty()) url += "&delimiter=" + EncodeQueryValue(options.delimiter);
  // The marker is opaque: passed back exactly as received, only percent-encoded.
  if (!marker.empty()) url += "&marker=" + EncodeQueryValue(marker);
  return url;
}

namespace {

// What one page request came to, after its retries.
struct PageFetch {
  HttpResponse resp;
  HttpResponse retried;       ///< the last failed attempt that was retried, if any
  bool admitted = false;      ///< false: the budget refused the (next) attempt
  bool deadline_cut = false;  ///< the last attempt was cut by the probe's own deadline
};

// The listing as it is walked: the loop's state, then what the facts and charts are made of.
struct ListWalk {
  DatasetShape shape;
  LatencyHistogram page_hist;
  Series page_series{"probe.list.page_ms",
                     "List page latency",
                     "page",
                     Unit::kCount,
                     "ms",
                     Unit::kMilliseconds,
                     {}};
  // Entries listed by time: its slope is the listing's rate, seen even when one page held all.
  Series listed = ListedSeries();
  uint64_t entries = 0, pages = 0, prefixes = 0, largest_page_bytes = 0;
  double first_entry_s = -1;
  double elapsed_s = 0;
  bool complete = false;
  std::string stop;
  bool never_connected = false, not_found = false;
};

// Measure: one page, retried on throttling and transient faults with RetryPolicy's backoff
// (every attempt is a request of the budget; none is sent after the deadline or a stop).
PageFetch FetchPage(const HttpProbeEnv& env, const ListProbeOptions& options,
                    const std::string& marker, HttpClient* client, BudgetTracker* budget,
                    std::minstd_rand* rng, ErrorTally* errors, ListWalk* walk,
                    ProbeResult* result) {
  std::uniform_real_distribution<double> jitter(0, 1);
  RetryPolicy retry;
  PageFetch fetch;
  for (int attempt = 0;; ++attempt) {
    ListProbeOptions page_options = options;
    page_options.max_results = PageEntries(options.max_results, budget->bytes_left());
    // Never less than the largest page seen: a server that ignores maxresults would have the
    // page cut (and its unread rest lost in flight, past the budget as the server counts).
    uint64_t reserve =
        std::max(ListPageMaxBytes(page_options.max_results), walk->largest_page_bytes);
    fetch.admitted = budget->TryStart(reserve);
    if (!fetch.admitted) break;
    HttpRequest req = env.SignedRequest("GET", ListPageUrl(env.target, page_options, marker));
    req.keep_body = true;
    req.max_body_bytes = reserve;
    req.timeout_s = budget->RequestTimeout(60);
    req.connect_timeout_s = std::min(req.connect_timeout_s, req.timeout_s);
    HttpResponse& resp = fetch.resp;
    resp = client->Perform(req);
    walk->largest_page_bytes = std::max(walk->largest_page_bytes, resp.body_bytes);
    // A body cut short may have left the server in full: charge the reservation.
    bool cut = !resp.transport_error.empty() && resp.status / 100 == 2;
    budget->Finish(reserve, cut ? reserve : resp.body_bytes);
    result->requests_sent++;
    result->bytes_received += resp.body_bytes;
    if (resp.stopped || (resp.status == 200 && resp.transport_error.empty())) break;
    // Timed out only because the budget capped its timeout, after pages came or after a
    // failure that was retried: the probe's own limit, not slow storage (the throughput and
    // latency probes' rule). A first page that never came in the whole budget is a timeout.
    fetch.deadline_cut = resp.timed_out && req.timeout_s < 60 && (walk->pages > 0 || attempt > 0);
    if (fetch.deadline_cut) break;
    ErrorClass c = ClassifyResponse(resp);
    // At least the wait the server asked for (Retry-After); none past the budget's end.
    double delay_s =
        std::max(retry.DelaySeconds(attempt + 1, jitter(*rng)), RetryAfterSeconds(resp));
    if (attempt >= retry.max_retries || !IsRetryable(c) || delay_s >= budget->RemainingSeconds())
      break;
    errors->Add(resp);
    ++errors->retries;
    fetch.retried = resp;
    std::this_thread::sleep_for(std::chrono::duration<double>(delay_s));
  }
  return fetch;
}

// Measure: a page's entries into the dataset's shape, the counts and the page's timings.
void TakePage(const ListPage& page, const HttpResponse& resp, const std::string& dir_prefix,
              Clock::time_point t0, ListWalk* walk) {
  ++walk->pages;
  double page_s = resp.timing.total_s;
  walk->page_hist.RecordSeconds(page_s);
  walk->page_series.points.push_back({static_cast<double>(walk->pages), page_s * 1e3});
  if (walk->first_entry_s < 0 && (!page.entries.empty() || !page.prefixes.empty()))
    walk->first_entry_s = Seconds(t0, Clock::now());
  for (const auto& e : page.entries) {
    std::string_view rel = Relative(e.name, dir_prefix);
    if (e.is_dir) {
      walk->shape.AddDir(rel);
    } else {
      walk->shape.AddFile(rel, e.size_bytes);
    }
  }
  for (const auto& p : page.prefixes) walk->shape.AddDir(Relative(p, dir_prefix));
  walk->entries += page.entries.size() + page.prefixes.size();
  walk->prefixes += page.prefixes.size();
  walk->listed.points.push_back({Seconds(t0, Clock::now()), static_cast<double>(walk->entries)});
}

// Measure: pages until the listing ends, --max-pages, the budget, a failure or a looping
// marker; `walk->stop` says which when it did not end.
ListWalk WalkListing(const HttpProbeEnv& env, const ListProbeOptions& options, ErrorTally* errors,
                     ProbeResult* result) {
  const Target& t = env.target;
  const bool dfs = t.kind == TargetKind::kDfs;
  BudgetTracker budget(env.budget);
  auto client = env.make_client();
  std::string dir_prefix =
      t.prefix.substr(0, t.prefix.rfind('/') == std::string::npos ? 0 : t.prefix.rfind('/') + 1);
  std::minstd_rand rng(std::random_device{}());
  ListWalk walk;
  ListPage page;
  std::string marker;
  // Each marker followed, with the page it asked for (bounded by --max-pages).
  std::map<std::string, uint64_t> markers_followed{{"", 1}};
  auto t0 = Clock::now();
  while (static_cast<int>(walk.pages) < options.max_pages) {
    PageFetch fetch =
        FetchPage(env, options, marker, client.get(), &budget, &rng, errors, &walk, result);
    HttpResponse& resp = fetch.resp;
    if (fetch.deadline_cut && fetch.retried.status == 0 && fetch.retried.transport_error.empty()) {
      walk.stop = "duration budget reached";  // nothing failed: the time was up
      break;
    }
    if (!fetch.admitted || resp.stopped) {
      walk.stop = budget.stop_reason();
      if (walk.stop.empty()) walk.stop = StopReason();
      break;
    }
    if (fetch.deadline_cut) {
      // The page failed, was retried, and the retry ran into the deadline: what the server did
      // is the failure before it (already counted).
      resp = fetch.retried;
    } else if (resp.status != 200 || !resp.transport_error.empty()) {
      errors->Add(resp);
    }
    if (resp.status != 200 || !resp.transport_error.empty()) {
      walk.never_connected = NoHttpAnswer(resp);
      walk.not_found = resp.status == 404;
      if (resp.status == 0 || resp.status == 200) {
        walk.stop =
            "page " + std::to_string(walk.pages + 1) + ": " + RedactText(resp.transport_error);
      } else {
        walk.stop = fmt::format("page {}: {}{}", walk.pages + 1, StatusText(resp),
                                RetryAfterNote(resp, budget.RemainingSeconds()));
      }
      break;
    }
    std::string error;
    bool ok = dfs ? ParseListPathsJson(resp.body, &page, &error)
                  : ParseListBlobsXml(resp.body, &page, &error);
    if (!ok) {
      // A malformed or truncated page (a proxy that cut the connection): a failed request.
      ++errors->total;
      if (errors->first_message.empty()) errors->first_message = "malformed listing: " + error;
      walk.stop = "page " + std::to_string(walk.pages + 1) + ": " + error;
      break;
    }
    if (dfs) page.next_marker = resp.Header("x-ms-continuation");
    TakePage(page, resp, dir_prefix, t0, &walk);
    env.Progress(fmt::format("page {}: {} entries", walk.pages, walk.entries));
    if (page.next_marker.empty()) {
      walk.complete = true;
      break;
    }
    if (page.next_marker == marker) {
      // The same page would come back forever, counted again each time: a broken or hostile
      // server. Stop with what was listed once.
      walk.stop = fmt::format(
          "page {}: the NextMarker did not change, so the listing would repeat "
          "forever; stopped",
          walk.pages);
      break;
    }
    // A marker that points back to a page already listed (A, B, A, ...) loops the same way.
    auto [seen, fresh] = markers_followed.emplace(page.next_marker, walk.pages + 1);
    if (!fresh) {
      walk.stop = fmt::format(
          "page {}: the NextMarker leads back to page {}, so the listing would loop forever; "
          "stopped",
          walk.pages, seen->second);
      break;
    }
    marker = page.next_marker;
  }
  walk.elapsed_s = Seconds(t0, Clock::now());
  if (!walk.complete && walk.stop.empty())
    walk.stop =
        fmt::format("--max-pages {} reached before the end of the listing", options.max_pages);
  return walk;
}

// Summarize: the listing's figures as probe.list.* facts, and the dataset's shape (a flat
// listing only: a one-level listing sees only the top of the tree).
void AddListFacts(const ListWalk& walk, const ListProbeOptions& options, uint64_t requests_sent,
                  const Provenance& prov, FactSet* f) {
  f->Set(NumberFact("probe.list.pages", static_cast<double>(walk.pages), Unit::kCount, prov));
  f->Set(NumberFact("probe.list.requests", static_cast<double>(requests_sent), Unit::kCount, prov));
  f->Set(NumberFact("probe.list.entries", static_cast<double>(walk.entries), Unit::kCount, prov));
  f->Set(BoolFact("probe.list.complete", walk.complete, prov));
  if (walk.pages > 0) {
    f->Set(NumberFact("probe.list.entries_per_s",
                      walk.elapsed_s > 0 ? static_cast<double>(walk.entries) / walk.elapsed_s : 0,
                      Unit::kPerSecond, prov));
    f->Set(NumberFact("probe.list.page_p50_ms", walk.page_hist.PercentileSeconds(0.5) * 1e3,
                      Unit::kMilliseconds, prov));
    f->Set(NumberFact("probe.list.page_p99_ms", walk.page_hist.PercentileSeconds(0.99) * 1e3,
                      Unit::kMilliseconds, prov));
    if (walk.first_entry_s >= 0)
      f->Set(NumberFact("probe.list.first_entry_ms", walk.first_entry_s * 1e3, Unit::kMilliseconds,
                        prov));
  }
  if (options.delimiter.empty()) {
    walk.shape.AddFacts(prov, walk.complete, f);
  } else {
    f->Set(
        NumberFact("probe.list.prefixes", static_cast<double>(walk.prefixes), Unit::kCount, prov));
  }
}

// Chart: page latency and entries by time (when a page came), the sizes of a flat listing.
void AddListCharts(ListWalk walk, const ListProbeOptions& options, std::vector<Series>* series) {
  if (walk.pages > 0) {
    series->push_back(std::move(walk.page_series));
    series->push_back(std::move(walk.listed));
  }
  if (options.delimiter.empty() && walk.shape.files() > 0)
    series->push_back(walk.shape.SizeHistogram());
}

// Conclude: ok when complete, partial with why when not; no page is failed (exit 4), or a
// target error (exit 3) when nothing answered or there is no such container.
void JudgeListRun(const ListWalk& walk, ProbeResult* result) {
  if (!walk.complete) {
    result->evidence.diagnostics.Add({codes::kListingIncomplete,
                                      DiagnosticSeverity::kWarning,
                                      "listing incomplete: " + walk.stop,
                                      {},
                                      "list",
                                      ""});
  }
  if (walk.pages == 0) {
    result->status =
        walk.never_connected || walk.not_found ? ProbeStatus::kUnreachable : ProbeStatus::kFailed;
    result->message = walk.stop;
  } else {
    result->status = walk.complete ? ProbeStatus::kOk : ProbeStatus::kPartial;
    result->message = walk.complete ? "" : walk.stop;
  }
}

}  // namespace

ProbeResult RunListProbe(const HttpProbeEnv& env, const ListProbeOptions& options) {
  ProbeResult result;
  result.probe = "list";
  const Target& t = env.target;
  if (!t.is_azure()) {
    result.status = ProbeStatus::kFailed;
    result.message = t.Display() +
                     " is not a storage account URL; listing needs Azure Blob, ADLS "
                     "or the emulator";
    return result;
  }
  ErrorTally errors;
  ListWalk walk = WalkListing(env, options, &errors, &result);
  result.elapsed_s = walk.elapsed_s;

  std::string params =
      fmt::format("probe list ({}{}, maxresults={}, {})",
                  t.kind == TargetKind::kDfs ? "List Paths" : "List Blobs",
                  options.delimiter.empty() ? " flat" : " delimiter '" + options.delimiter + "'",
                  std::clamp(options.max_results, 1, 5000),
                  feedcheck::Counted(static_cast<double>(walk.pages), "page"));
  Provenance prov{FactOrigin::kMeasured, params, "", 0, "", -1};
  errors.AddFacts(&result.evidence.facts, prov);
  AddListFacts(walk, options, result.requests_sent, prov, &result.evidence.facts);
  JudgeListRun(walk, &result);
  AddListCharts(std::move(walk), options, &result.evidence.series);
  return result;
}

ProbeResult RunLocalListProbe(const std::string& path, const ListProbeOptions& options,
                              const ProbeBudget& budget, const ProgressFn& progress) {
  namespace fs = std::filesystem;
  ProbeResult result;
  result.probe = "list";
  std::error_code ec;
  if (!fs::is_directory(path, ec)) {
    result.status = ProbeStatus::kUnreachable;
    result.message = path + ": not a directory";
    return result;
  }
  const uint64_t max_entries = static_cast<uint64_t>(std::max(1, options.max_pages)) *
                               static_cast<uint64_t>(std::clamp(options.max_results, 1, 5000));
  auto t0 = Clock::now();
  auto deadline = t0 + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(budget.duration_s * 0.5));
  std::vector<std::string> names;  // relative to `path`, for the stat pass
  Series listed = ListedSeries();
  std::vector<bool> is_dir;
  double first_entry_s = -1;
  bool complete = true;
  std::string stop;
  uint64_t unreadable = 0;
  // Phase 1: the walk. recursive_directory_iterator streams readdir, so the first entry arrives
  // after one getdents call, like os.scandir; a full listing (os.listdir of everything) waits
  // for the whole walk.
  fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end;
  if (ec) {
    result.status = ProbeStatus::kUnreachable;
    result.message = path + ": " + ec.message();
    return result;
  }
  for (; it != end; it.increment(ec)) {
    if (ec) {
      ++unreadable;
      ec.clear();
      continue;
    }
    if (first_entry_s < 0) first_entry_s = Seconds(t0, Clock::now());
    if (!options.delimiter.empty()) it.disable_recursion_pending();  // one level only
    names.push_back(fs::relative(it->path(), path, ec).string());
    bool dir = it->is_directory(ec);  // from d_type: no stat on most filesystems
    is_dir.push_back(dir);
    if (names.size() >= max_entries) {
      complete = false;
      stop = fmt::format("stopped after {} entries (--max-pages x page size)", names.size());
      break;
    }
    if ((names.size() & 1023) == 0) {
      if (Clock::now() > deadline || StopRequested()) {
        complete = false;
        stop = StopRequested() ? StopReason() : "half the time budget spent walking";
        break;
      }
      if (progress) progress(fmt::format("{} entries", names.size()));
      listed.points.push_back({Seconds(t0, Clock::now()), static_cast<double>(names.size())});
    }
  }
  double walk_s = Seconds(t0, Clock::now());
  if (!names.empty() && listed.points.back().y < static_cast<double>(names.size()))
    listed.points.push_back({walk_s, static_cast<double>(names.size())});
  // Phase 2: stat every entry (what a loader that needs sizes or mtimes pays).
  DatasetShape shape;
  auto s0 = Clock::now();
  uint64_t stats = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    if ((i & 255) == 0 && (Seconds(t0, Clock::now()) > budget.duration_s || StopRequested())) {
      complete = false;
      stop = StopRequested() ? StopReason() : "time budget spent on stat";
      break;
    }
    struct stat st {};
    std::string full = path + "/" + names[i];
    ++stats;
    if (::stat(full.c_str(), &st) != 0) {
      ++unreadable;
      continue;
    }
    if (S_ISDIR(st.st_mode)) {
      shape.AddDir(names[i]);
    } else if (S_ISREG(st.st_mode)) {
      shape.AddFile(names[i], static_cast<uint64_t>(st.st_size));
    }
  }
  double stat_s = Seconds(s0, Clock::now());
  result.elapsed_s = Seconds(t0, Clock::now());
  Provenance prov{FactOrigin::kMeasured,
                  fmt::format("probe list (readdir walk{} of {}, then stat per entry)",
                              options.delimiter.empty() ? "" : ", one level", path),
                  "",
                  0,
                  "",
                  -1};
  FactSet& f = result.evidence.facts;
  f.Set(NumberFact("probe.list.entries", static_cast<double>(names.size()), Unit::kCount, prov));
  f.Set(BoolFact("probe.list.complete", complete, prov));
  f.Set(NumberFact("probe.list.full_ms", walk_s * 1e3, Unit::kMilliseconds, prov));
  if (first_entry_s >= 0)
    f.Set(NumberFact("probe.list.first_entry_ms", first_entry_s * 1e3, Unit::kMilliseconds, prov));
  if (walk_s > 0)
    f.Set(NumberFact("probe.list.entries_per_s", static_cast<double>(names.size()) / walk_s,
                     Unit::kPerSecond, prov));
  if (!names.empty()) result.evidence.series.push_back(std::move(listed));
  if (stats > 0)
    f.Set(NumberFact("probe.list.stat_per_entry_ms", stat_s * 1e3 / static_cast<double>(stats),
                     Unit::kMilliseconds, prov));
  if (options.delimiter.empty()) {
    shape.AddFacts(prov, complete, &f);
    if (shape.files() > 0) result.evidence.series.push_back(shape.SizeHistogram());
  }
  if (unreadable > 0)
    result.evidence.diagnostics.Add(
        {codes::kEntriesUnreadable,
         DiagnosticSeverity::kWarning,
         fmt::format("{} entries could not be read or stat'ed", unreadable),
         {path, 0, 0},
         "list",
         ""});
  if (!complete)
    result.evidence.diagnostics.Add({codes::kListingIncomplete,
                                     DiagnosticSeverity::kWarning,
                                     "listing incomplete: " + stop,
                                     {path, 0, 0},
                                     "list",
                                     ""});
  result.status = complete ? ProbeStatus::kOk : ProbeStatus::kPartial;
  result.message = complete ? "" : stop;
  return result;
}

}  // namespace feedcheck
