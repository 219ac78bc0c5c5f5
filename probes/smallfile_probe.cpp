#include "probes/smallfile_probe.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <memory>
#include <random>
#include <thread>

#include "core/diagnostic_codes.h"
#include "core/redact.h"
#include "core/smallfile_fit.h"
#include "probes/budget_tracker.h"
#include "probes/cleanup_registry.h"
#include "probes/list_probe.h"
#include "transport/answer_check.h"
#include "transport/http_errors.h"
#include "transport/list_blobs_xml.h"

namespace feedcheck {

namespace {

using Clock = std::chrono::steady_clock;

struct ReadOutcome {
  bool ok = false;
  double seconds = 0;
  uint64_t bytes = 0;
  std::string error;
};

/// One worker's way of reading (its own connection or file descriptors).
class ItemReader {
 public:
  virtual ~ItemReader() = default;
  virtual ReadOutcome Read(const SmallFileRead& item) = 0;
  /// Failed HTTP requests, classified (throttling, 403, ...); null for files.
  virtual const ErrorTally* errors() const { return nullptr; }
};
using ReaderFactory = std::function<std::unique_ptr<ItemReader>()>;

class HttpItemReader : public ItemReader {
 public:
  HttpItemReader(const HttpProbeEnv& env, BudgetTracker* budget,
                 std::shared_ptr<WrongAnswerLatch> wrong_answers)
      : env_(env),
        budget_(budget),
        client_(env.make_client()),
        wrong_answers_(std::move(wrong_answers)) {}
  ReadOutcome Read(const SmallFileRead& item) override {
    ReadOutcome out;
    out.error = wrong_answers_->First();
    if (!out.error.empty()) return out;  // no request: it would get the same
    if (!budget_->TryStart(item.bytes)) {
      out.error = budget_->stop_reason();
      return out;
    }
    std::vector<std::pair<std::string, std::string>> headers;
    if (item.ranged) {
      std::string range = fmt::format("bytes={}-{}", item.offset, item.offset + item.bytes - 1);
      headers.emplace_back(env_.target.is_azure() ? "x-ms-range" : "Range", range);
    }
    HttpRequest req = env_.SignedRequest("GET", env_.target.ObjectUrl(item.name), headers);
    req.max_body_bytes = item.bytes;
    req.timeout_s = budget_->RequestTimeout(120);
    HttpResponse resp = client_->Perform(req);
    // A read cut short may have left the server in full: charge what was asked for, so
    // --max-bytes also holds as the server counts it.
    bool cut = resp.status / 100 == 2 && resp.body_bytes < item.bytes;
    budget_->Finish(item.bytes, cut ? item.bytes : resp.body_bytes, resp.body_bytes);
    out.bytes = resp.body_bytes;
    out.seconds = resp.timing.total_s;
    // A transport error after every byte arrived (a Content-Length the body never matched)
    // is a failed read too: the connection broke.
    out.ok = (resp.status == 200 || resp.status == 206) && resp.body_bytes == item.bytes &&
             resp.transport_error.empty();
    if (resp.stopped) {
      out.error = StopReason();
      return out;
    }
    if (!out.ok && errors_.Add(resp) == ErrorClass::kNone) {
      ++errors_.total;  // a short body without a transport error
      ++errors_.by_class[ErrorClass::kTransport];
    }
    if (!out.ok) {
      out.error = resp.status == 0 ? RedactText(resp.transport_error)
                                   : fmt::format("{} for {}", StatusText(resp), item.name);
      if (resp.wrong_answer || resp.over_cap) {
        out.error = item.name + ": " + RedactText(resp.transport_error);
        wrong_answers_->Set(out.error);
      } else if (resp.status / 100 == 2 && resp.body_bytes != item.bytes) {
        out.error =
            fmt::format("{}: {} bytes instead of {}", item.name, resp.body_bytes, item.bytes);
      }
    }
    return out;
  }
  const ErrorTally* errors() const override { return &errors_; }

 private:
  const HttpProbeEnv& env_;
  BudgetTracker* budget_;
  std::unique_ptr<HttpClient> client_;
  std::shared_ptr<WrongAnswerLatch> wrong_answers_;
  ErrorTally errors_;
};

class FileItemReader : public ItemReader {
 public:
  FileItemReader(std::string dir, BudgetTracker* budget)
      : dir_(std::move(dir)), budget_(budget), buffer_(1 << 20) {}
  ReadOutcome Read(const SmallFileRead& item) override {
    ReadOutcome out;
    if (!budget_->TryStart(item.bytes)) {
      out.error = budget_->stop_reason();
      return out;
    }
    std::string path = dir_ + "/" + item.name;
    auto t0 = Clock::now();
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      budget_->Finish(item.bytes, 0);
      out.error = path + ": cannot open";
      return out;
    }
    uint64_t got = 0;
    while (got < item.bytes) {
      size_t want = static_cast<size_t>(std::min<uint64_t>(buffer_.size(), item.bytes - got));
      ssize_t n = ::pread(fd, buffer_.data(), want, static_cast<off_t>(item.offset + got));
      if (n <= 0) break;
      got += static_cast<uint64_t>(n);
    }
    ::close(fd);
    out.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    budget_->Finish(item.bytes, got);
    out.bytes = got;
    out.ok = got == item.bytes;
    if (!out.ok) out.error = fmt::format("{}: read {} of {} bytes", path, got, item.bytes);
    return out;
  }

 private:
  std::string dir_;
  BudgetTracker* budget_;
  std::vector<char> buffer_;
};

struct ClassResult {
  uint64_t size = 0;
  std::vector<double> seconds;  // per successful request
  double wall_s = 0;
  uint64_t bytes = 0;
  uint64_t failures = 0;
  std::string first_error;
};

ClassResult MeasureClass(const SizeClassPlan& plan, int concurrency,
                         std::vector<std::unique_ptr<ItemReader>>& readers) {
  ClassResult r;
  r.size = plan.size;
  std::atomic<size_t> next{0};
  std::vector<std::vector<double>> per_worker(readers.size());
  std::vector<uint64_t> bytes(readers.size(), 0), failures(readers.size(), 0);
  std::vector<std::string> errors(readers.size());
  auto t0 = Clock::now();
  std::vector<std::thread> threads;
  for (size_t w = 0; w < static_cast<size_t>(concurrency) && w < readers.size(); ++w) {
    threads.emplace_back([&, w] {
      for (;;) {
        if (StopRequested()) return;
        size_t i = next.fetch_add(1);
        if (i >= plan.reads.size()) return;
        ReadOutcome o = readers[w]->Read(plan.reads[i]);
        bytes[w] += o.bytes;
        if (o.ok) {
          per_worker[w].push_back(o.seconds);
        } else {
          if (StopRequested()) return;  // the user's stop, not a failed read
          ++failures[w];
          if (errors[w].empty()) errors[w] = o.error;
          if (o.bytes == 0 && o.seconds == 0) return;  // refused by the budget: stop this worker
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  r.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  for (size_t w = 0; w < readers.size(); ++w) {
    r.seconds.insert(r.seconds.end(), per_worker[w].begin(), per_worker[w].end());
    r.bytes += bytes[w];
    r.failures += failures[w];
    if (r.first_error.empty()) r.first_error = errors[w];
  }
  return r;
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  auto mid = v.begin() + static_cast<std::ptrdiff_t>((v.size() - 1) / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

ProbeResult RunEngine(const std::string& what, const std::vector<SizeClassPlan>& plans,
                      const SmallFileOptions& options, BudgetTracker* budget,
                      const ReaderFactory& make_reader, const ProgressFn& progress,
                      const ErrorTally* listing_errors = nullptr) {
  ProbeResult result;
  result.probe = "smallfiles";
  if (plans.empty()) {
    result.requests_sent = budget->requests();
    result.bytes_received = budget->received_bytes();  // what arrived
    result.bytes_charged = budget->bytes();
    result.status = ProbeStatus::kFailed;
    result.message =
        "no objects of the requested sizes and none large enough for ranged reads "
        "under " +
        what + " (seed some with --create-test-data)";
    return result;
  }
  int concurrency = std::max(1, options.concurrency);
  std::vector<std::unique_ptr<ItemReader>> readers;
  for (int i = 0; i < concurrency; ++i) readers.push_back(make_reader());

  // Warm-up: one read per connection so connect/TLS are not charged to the first size class.
  for (auto& reader : readers) {
    SmallFileRead warm = plans.front().reads.front();
    warm.bytes = std::min<uint64_t>(warm.bytes, 4096);
    if (!warm.ranged) warm.ranged = warm.bytes < plans.front().reads.front().bytes;
    reader->Read(warm);
  }

  std::vector<ClassResult> classes;
  std::string first_error;
  uint64_t failures = 0;
  for (const auto& plan : plans) {
    if (StopRequested() || budget->Expired()) break;
    if (progress)
      progress(fmt::format("{} x {} at concurrency {}", plan.reads.size(),
                           FormatBytes(static_cast<double>(plan.size)), concurrency));
    ClassResult c = MeasureClass(plan, concurrency, readers);
    failures += c.failures;
    if (first_error.empty()) first_error = c.first_error;
    if (!c.seconds.empty()) classes.push_back(std::move(c));
  }
  result.requests_sent = budget->requests();
  result.bytes_received = budget->received_bytes();  // what arrived
  result.bytes_charged = budget->bytes();
  result.elapsed_s = budget->ElapsedSeconds();

  std::string params = fmt::format("probe smallfiles ({}, concurrency {}, {} sizes)", what,
                                   concurrency, classes.size());
  Provenance prov{FactOrigin::kMeasured, params, "", 0, "", -1};
  FactSet& f = result.evidence.facts;
  Series measured{"probe.smallfile.time_by_size",
                  "Time per request (median)",
                  "object size",
                  Unit::kBytes,
                  "ms per request",
                  Unit::kMilliseconds,
                  {}};
  Series throughput{"probe.smallfile.throughput_by_size",
                    "Throughput at this size",
                    "object size",
                    Unit::kBytes,
                    "Gbit/s",
                    Unit::kGbps,
                    {}};
  std::vector<SizeClassTiming> timings;
  for (const auto& c : classes) {
    double med = Median(c.seconds);
    measured.points.push_back({static_cast<double>(c.size), med * 1e3});
    throughput.points.push_back(
        {static_cast<double>(c.size),
         c.wall_s > 0 ? static_cast<double>(c.bytes) * 8 / c.wall_s / 1e9 : 0});
    // Requests in flight on average (Little's law: request-seconds over wall seconds), at most
    // the workers that had a read to do: a class of 2 reads at concurrency 8 shares the path
    // 2 ways, not 8.
    double busy_s = 0;
    for (double s : c.seconds) busy_s += s;
    double most = static_cast<double>(
        std::min<size_t>(static_cast<size_t>(concurrency), c.seconds.size() + c.failures));
    double in_flight = c.wall_s > 0 ? busy_s / c.wall_s : most;
    double mean = c.seconds.empty() ? med : busy_s / static_cast<double>(c.seconds.size());
    timings.push_back({static_cast<double>(c.size), med, std::clamp(in_flight, 1.0, most), mean});
  }
  f.Set(NumberFact("probe.smallfile.concurrency", concurrency, Unit::kCount, prov));
  if (readers.front()->errors() || listing_errors) {
    // HTTP: every failure classified (throttled egress/requests, 403, timeouts, ...).
    ErrorTally all;
    if (listing_errors) all.Merge(*listing_errors);
    for (const auto& reader : readers)
      if (reader->errors()) all.Merge(*reader->errors());
    all.AddFacts(&f, prov);
  } else if (failures > 0) {
    f.Set(NumberFact("probe.errors.total", static_cast<double>(failures), Unit::kCount, prov));
  }
  auto fit = FitSmallFileCost(timings);
  if (fit) {
    double bytes_per_s = fit->aggregate_bytes_per_s;
    f.Set(NumberFact("probe.smallfile.overhead_ms", fit->overhead_s * 1e3, Unit::kMilliseconds,
                     prov));
    f.Set(NumberFact("probe.smallfile.bandwidth_gbps", bytes_per_s * 8 / 1e9, Unit::kGbps, prov));
    // The break-even depends on how many requests share the bandwidth: state both.
    f.Set(NumberFact("probe.smallfile.breakeven_bytes", fit->BreakEvenBytes(concurrency),
                     Unit::kBytes, prov));
    f.Set(NumberFact("probe.smallfile.breakeven_bytes_one_stream", fit->BreakEvenBytes(1),
                     Unit::kBytes, prov));
    f.Set(NumberFact("probe.smallfile.fit_r2", fit->r_squared, Unit::kFraction, prov));
    Series fitted{"probe.smallfile.fit",
                  fmt::format("overhead + {} x size / aggregate bandwidth", concurrency),
                  "object size",
                  Unit::kBytes,
                  "ms per request",
                  Unit::kMilliseconds,
                  {}};
    // A smooth curve: 8 points per factor of 4 between the smallest and largest size.
    double lo = std::log2(timings.front().size_bytes), hi = std::log2(timings.back().size_bytes);
    int steps = std::max(2, static_cast<int>((hi - lo) * 4) + 1);
    for (int i = 0; i <= steps; ++i) {
      double x = std::exp2(lo + (hi - lo) * i / steps);
      fitted.points.push_back({x, fit->RequestSeconds(x, concurrency) * 1e3});
    }
    result.evidence.series.push_back(std::move(fitted));
  } else if (classes.size() >= 2) {
    result.evidence.diagnostics.Add({codes::kSmallFilesNoFit,
                                     DiagnosticSeverity::kWarning,
                                     "times did not grow with size; no overhead/bandwidth fit",
                                     {},
                                     "smallfiles",
                                     ""});
  }
  result.evidence.series.push_back(std::move(measured));
  result.evidence.series.push_back(std::move(throughput));
  for (const auto& p : plans)
    result.evidence.diagnostics.Add({codes::kSmallFilesSizePlan,
                                     DiagnosticSeverity::kNote,
                                     FormatBytes(static_cast<double>(p.size)) + ": " + p.how,
                                     {},
                                     "smallfiles",
                                     ""});

  if (classes.empty()) {
    result.status = ProbeStatus::kFailed;
    result.message = first_error.empty() ? "no read succeeded" : first_error;
  } else if (classes.size() < plans.size() || failures > 0 || StopRequested()) {
    result.status = ProbeStatus::kPartial;
    result.message = StopRequested()        ? StopReason()
                     : !first_error.empty() ? first_error
                                            : budget->stop_reason();
    if (result.message.empty()) result.message = "the budget ended before every size was read";
  }
  return result;
}

// One listing page of the prefix: through the budget like every request, its timeout capped by
// the deadline, retried on throttling/transient faults with RetryPolicy's backoff (the same
// bounded policy as the list probe), failures classified into `errors`. Sets `*status` to
// kUnreachable (no connection, no such container) or kFailed when nothing came back.
std::vector<ListedEntry> ListForSmallFiles(const HttpProbeEnv& env, BudgetTracker* budget,
                                           ErrorTally* errors, ProbeStatus* status,
                                           std::string* error) {
  ListProbeOptions lo;
  lo.max_pages = 1;
  auto client = env.make_client();
  RetryPolicy retry;
  std::minstd_rand rng(std::random_device{}());
  std::uniform_real_distribution<double> jitter(0, 1);
  HttpResponse resp;
  *status = ProbeStatus::kFailed;
  for (int attempt = 0;; ++attempt) {
    // The whole page must fit in --max-bytes, long names included (ListPageMaxBytes).
    lo.max_results = std::max(1, ListPageEntriesFitting(budget->bytes_left()));
    const uint64_t reserve = ListPageMaxBytes(lo.max_results);
    if (!budget->TryStart(reserve)) {
      *error = "listing the prefix: " +
               (budget->stop_reason().empty() ? "byte budget reached" : budget->stop_reason());
      return {};
    }
    HttpRequest req = env.SignedRequest("GET", ListPageUrl(env.target, lo, ""));
    req.keep_body = true;
    req.max_body_bytes = reserve;
    req.timeout_s = budget->RequestTimeout(60);
    req.connect_timeout_s = std::min(req.connect_timeout_s, req.timeout_s);
    resp = client->Perform(req);
    bool cut = !resp.transport_error.empty() && resp.status / 100 == 2;
    budget->Finish(reserve, cut ? reserve : resp.body_bytes);
    if (resp.stopped) {
      *error = "listing the prefix: " + StopReason();
      return {};
    }
    if (resp.status == 200 && resp.transport_error.empty()) break;
    ErrorClass c = ClassifyResponse(resp);
    // At least the wait the server asked for (Retry-After); none past the budget's end.
    double delay_s =
        std::max(retry.DelaySeconds(attempt + 1, jitter(rng)), RetryAfterSeconds(resp));
    if (attempt >= retry.max_retries || !IsRetryable(c) || delay_s >= budget->RemainingSeconds()) {
      errors->Add(resp);
      if (NoHttpAnswer(resp) || resp.status == 404) *status = ProbeStatus::kUnreachable;
      *error = "listing the prefix: " +
               (resp.status == 0 || resp.status == 200
                    ? RedactText(resp.transport_error)
                    : StatusText(resp) + RetryAfterNote(resp, budget->RemainingSeconds()));
      return {};
    }
    errors->Add(resp);
    ++errors->retries;
    std::this_thread::sleep_for(std::chrono::duration<double>(delay_s));
  }
  ListPage page;
  bool ok = env.target.kind == TargetKind::kDfs ? ParseListPathsJson(resp.body, &page, error)
                                                : ParseListBlobsXml(resp.body, &page, error);
  if (!ok) {
    ++errors->total;
    if (errors->first_message.empty()) errors->first_message = "malformed listing: " + *error;
    *error = "listing the prefix: " + *error;
    return {};
  }
  std::vector<ListedEntry> out;
  for (auto& e : page.entries)
    if (!e.is_dir && e.size_bytes > 0) out.push_back(std::move(e));
  return out;
}

}  // namespace

std::vector<SizeClassPlan> PlanSmallFileReads(const std::vector<ListedEntry>& objects,
                                              const SmallFileOptions& options, uint64_t max_bytes) {
  std::vector<uint64_t> sizes = options.sizes;
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  sizes.erase(std::remove(sizes.begin(), sizes.end(), 0), sizes.end());
  std::vector<SizeClassPlan> plans;
  if (sizes.empty()) return plans;
  uint64_t share = max_bytes / sizes.size();
  for (uint64_t size : sizes) {
    // Enough requests for a median, fewer for big sizes when the byte budget is tight.
    uint64_t n = std::min<uint64_t>(static_cast<uint64_t>(std::max(1, options.requests_per_size)),
                                    std::max<uint64_t>(2, share / size));
    if (n * size > max_bytes) continue;
    SizeClassPlan plan;
    plan.size = size;
    std::vector<const ListedEntry*> near;
    const ListedEntry* big = nullptr;
    for (const auto& o : objects) {
      if (o.is_dir) continue;
      double ratio = static_cast<double>(o.size_bytes) / static_cast<double>(size);
      if (ratio >= 0.8 && ratio <= 1.25) near.push_back(&o);
      if (o.size_bytes >= size && (!big || o.size_bytes < big->size_bytes)) big = &o;
    }
    if (!near.empty()) {
      for (uint64_t i = 0; i < n; ++i) {
        const ListedEntry* o = near[i % near.size()];
        plan.reads.push_back({o->name, 0, o->size_bytes, false});
      }
      plan.how = fmt::format("whole objects ({} distinct of ~{})", std::min<size_t>(near.size(), n),
                             FormatBytes(static_cast<double>(size)));
    } else if (big) {
      // Spread ranges over the object so a cache in front of it sees distinct blocks.
      uint64_t slots = std::max<uint64_t>(1, big->size_bytes / size);
      for (uint64_t i = 0; i < n; ++i)
        plan.reads.push_back({big->name, (i % slots) * size, size, true});
      plan.how = fmt::format("ranged reads of {} ({})", big->name,
                             FormatBytes(static_cast<double>(big->size_bytes)));
    } else {
      continue;
    }
    plans.push_back(std::move(plan));
  }
  return plans;
}

ProbeResult RunSmallFileProbe(const HttpProbeEnv& env, const SmallFileOptions& options) {
  std::vector<ListedEntry> objects;
  std::string error;
  // One budget for everything, the listing or HEAD included.
  BudgetTracker budget(env.budget);
  ErrorTally listing_errors;
  auto fail = [&](ProbeStatus status, const std::string& message) {
    ProbeResult r;
    r.probe = "smallfiles";
    r.status = status;
    r.message = message;
    r.requests_sent = budget.requests();
    r.bytes_received = budget.received_bytes();  // what arrived
    r.bytes_charged = budget.bytes();
    r.elapsed_s = budget.ElapsedSeconds();
    listing_errors.AddFacts(&r.evidence.facts, {FactOrigin::kMeasured, "probe smallfiles"});
    return r;
  };
  if (env.target.is_azure()) {
    ProbeStatus status = ProbeStatus::kFailed;
    objects = ListForSmallFiles(env, &budget, &listing_errors, &status, &error);
    if (!error.empty()) return fail(status, error);
    // Names from the listing are full blob names; ObjectUrl wants them as they are.
  } else {
    // A plain URL is one object: ranged reads of it, its size from a HEAD.
    auto client = env.make_client();
    if (!budget.TryStart(0)) return fail(ProbeStatus::kFailed, budget.stop_reason());
    HttpRequest head = env.SignedRequest("HEAD", env.target.ObjectUrl(""));
    head.timeout_s = budget.RequestTimeout(30);
    head.connect_timeout_s = std::min(head.connect_timeout_s, head.timeout_s);
    HttpResponse h = client->Perform(head);
    budget.Finish(0, 0);
    uint64_t length = 0;
    try {
      length = std::stoull(h.Header("content-length"));
    } catch (...) {
    }
    if (h.status == 200 && length > 0) {
      objects.push_back({"", length, false});
    } else {
      listing_errors.Add(h);
      bool target_error = NoHttpAnswer(h) || h.status == 404;
      return fail(target_error ? ProbeStatus::kUnreachable : ProbeStatus::kFailed,
                  h.status ? fmt::format("HEAD {}: {}", env.target.Display(), StatusText(h))
                           : RedactText(h.transport_error));
    }
  }
  HttpProbeEnv local_env = env;
  if (env.target.is_azure()) local_env.target.prefix.clear();
  auto plans = PlanSmallFileReads(objects, options, budget.bytes_left());
  return RunEngine(
      env.target.Display(), plans, options, &budget,
      [&, wrong_answers = std::make_shared<WrongAnswerLatch>()]() -> std::unique_ptr<ItemReader> {
        return std::make_unique<HttpItemReader>(local_env, &budget, wrong_answers);
      },
      env.progress, &listing_errors);
}

ProbeResult RunLocalSmallFileProbe(const std::string& dir, const SmallFileOptions& options,
                                   const ProbeBudget& probe_budget, const ProgressFn& progress) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    ProbeResult r;
    r.probe = "smallfiles";
    r.status = ProbeStatus::kUnreachable;
    r.message = dir + ": not a directory";
    return r;
  }
  std::vector<ListedEntry> objects;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  for (; it != end && objects.size() < 100000; it.increment(ec)) {
    if (ec) break;
    std::error_code e2;
    if (!it->is_regular_file(e2)) continue;
    uint64_t size = it->file_size(e2);
    if (e2 || size == 0) continue;
    objects.push_back({fs::relative(it->path(), dir, e2).string(), size, false});
  }
  auto plans = PlanSmallFileReads(objects, options, probe_budget.max_bytes);
  // Drop the chosen files from the page cache so reads reach the device (clean pages only).
  for (const auto& p : plans)
    for (const auto& r : p.reads) {
      int fd = ::open((dir + "/" + r.name).c_str(), O_RDONLY | O_CLOEXEC);
      if (fd >= 0) {
        ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        ::close(fd);
      }
    }
  BudgetTracker budget(probe_budget);
  return RunEngine(
      dir, plans, options, &budget,
      [&]() -> std::unique_ptr<ItemReader> {
        return std::make_unique<FileItemReader>(dir, &budget);
      },
      progress);
}

}  // namespace feedcheck
