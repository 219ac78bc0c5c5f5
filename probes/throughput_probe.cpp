#include "probes/throughput_probe.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <random>
#include <thread>

#include "probes/budget_tracker.h"
#include "probes/cleanup_registry.h"
#include "probes/concurrency_sweep.h"
#include "probes/object_discovery.h"
#include "probes/sweep_stagger.h"
#include "probes/throughput_summary.h"
#include "transport/http_errors.h"

namespace feedcheck {
namespace {

using Clock = std::chrono::steady_clock;

double CpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto s = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return s(u.ru_utime) + s(u.ru_stime);
}

// The blocks of every object, in order; workers take the next one and wrap around, so a
// step longer than one pass reads the data again (the server may cache it; so would training).
class BlockCursor {
 public:
  BlockCursor(const std::vector<ObjectInfo>& objects, uint64_t block_bytes)
      : objects_(objects), block_bytes_(block_bytes) {
    uint64_t total = 0;
    for (const ObjectInfo& o : objects) {
      starts_.push_back(total);
      total += (o.size_bytes + block_bytes - 1) / block_bytes;
    }
    total_blocks_ = total;
  }
  struct Block {
    const ObjectInfo* object;
    uint64_t offset;
    uint64_t length;
  };
  Block Next() {
    // Sizes are bounded (blob_limits.h) and non-zero, so total_blocks_ >= 1 and cannot wrap.
    uint64_t i =
        next_.fetch_add(1, std::memory_order_relaxed) % std::max<uint64_t>(1, total_blocks_);
    size_t o = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), i) -
                                   starts_.begin() - 1);
    uint64_t offset = (i - starts_[o]) * block_bytes_;
    uint64_t length = std::min(block_bytes_, objects_[o].size_bytes - offset);
    return {&objects_[o], offset, length};
  }

 private:
  const std::vector<ObjectInfo>& objects_;
  uint64_t block_bytes_;
  std::vector<uint64_t> starts_;
  uint64_t total_blocks_ = 0;
  std::atomic<uint64_t> next_{0};
};

struct Shared {
  const HttpProbeEnv* env;
  const ThroughputProbeOptions* options;
  BudgetTracker* budget;
  BlockCursor* cursor;
  LaneStagger* stagger;
  std::atomic<bool> stop{false};
  std::atomic<bool> budget_hit{false};
  std::atomic<uint64_t> bytes{0};     ///< body bytes as they arrive
  std::atomic<uint64_t> requests{0};  ///< completed successfully
  std::atomic<uint64_t> failures{0};
  std::mutex mu;
  ErrorTally errors;
  std::vector<SeriesPoint>* timeline = nullptr;  ///< sampled by the waiting thread, if set
  std::vector<SeriesPoint>* window = nullptr;    ///< the measurement window's samples
};

// The noise band's intervals: long enough to hold several requests at 1 Gbit/s, short enough
// for 8 or more of them in a 2 s window.
constexpr double kIntervalS = 0.25;

double EpochSeconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

void Sample(Shared* s) {
  // Bounded: one point per 20 ms wait, and steps are bounded by the budget's duration.
  if (s->timeline) s->timeline->push_back({EpochSeconds(), static_cast<double>(s->bytes.load())});
  if (s->window) s->window->push_back({EpochSeconds(), static_cast<double>(s->bytes.load())});
}

void Worker(Shared* s, int lane, unsigned seed) {
  std::unique_ptr<HttpClient> client = s->env->make_client();
  bool first = true;  // the lane's first request also carries the connect and slow start
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> jitter(0, 1);
  RetryPolicy retry;
  retry.max_retries = s->options->max_retries;
  ErrorTally local;
  while (!s->stop.load(std::memory_order_relaxed)) {
    s->stagger->AwaitTurn(lane, first, s->stop);
    if (s->stop.load(std::memory_order_relaxed)) break;
    BlockCursor::Block block = s->cursor->Next();
    std::string range = fmt::format("bytes={}-{}", block.offset, block.offset + block.length - 1);
    for (int attempt = 0;; ++attempt) {
      if (s->stop.load(std::memory_order_relaxed)) break;
      if (!s->budget->TryStart(block.length)) {
        s->budget_hit = true;
        s->stop = true;
        break;
      }
      HttpRequest req = s->env->SignedRequest("GET", block.object->url, {{"Range", range}});
      req.timeout_s = s->budget->RequestTimeout(s->options->request_timeout_s);
      req.connect_timeout_s = std::min(10.0, req.timeout_s);
      // A server that ignores Range answers 200 with the whole object: cap it at the block.
      req.max_body_bytes = block.length;
      req.body_counter = &s->bytes;
      auto sent = Clock::now();
      HttpResponse r = client->Perform(req);
      if (r.stopped) {
        // SIGINT/SIGTERM: the user's stop, not a storage fault. Charge the range (the server
        // may have sent it) and end.
        s->budget->Finish(block.length, block.length, r.body_bytes);
        s->stop = true;
        break;
      }
      // A range cut short (reset, stall, short body) may have left the server in full: bytes
      // in flight are lost, not unsent. Charge the whole range, so --max-bytes also holds as
      // counted by the server (and by the bill).
      bool cut_short = r.status / 100 == 2 && r.body_bytes < block.length;
      // probe.bytes and CPU per GB count what arrived.
      s->budget->Finish(block.length, cut_short ? block.length : r.body_bytes, r.body_bytes);
      if (r.timed_out && req.timeout_s < s->options->request_timeout_s) {
        // Cut by the probe's own deadline, not slow storage: not an error, and the end.
        s->stop = true;
        break;
      }
      if (r.status == 200 && !r.wrong_answer && block.length < block.object->size_bytes) {
        // The server ignores Range: every block would be the whole object. Not retryable.
        ++local.total;
        ++local.by_class[ErrorClass::kClient];
        ++local.by_status[200];
        if (local.first_message.empty())
          local.first_message = "the server ignores Range (HTTP 200 instead of 206)";
        s->failures.fetch_add(1, std::memory_order_relaxed);
        s->stop = true;
        break;
      }
      ErrorClass c = local.Add(r);
      if (c == ErrorClass::kNone && r.body_bytes == block.length) {
        s->requests.fetch_add(1, std::memory_order_relaxed);
        s->stagger->RequestDone(first, std::chrono::duration<double>(Clock::now() - sent).count());
        first = false;
        break;
      }
      if (c == ErrorClass::kNone) {  // short body without a transport error
        ++local.total;
        ++local.by_class[ErrorClass::kTransport];
      }
      s->failures.fetch_add(1, std::memory_order_relaxed);
      if (!IsRetryable(c) && c != ErrorClass::kNone) {
        // Retrying a 403/404 only repeats it; stop this worker.
        s->stop = true;
        break;
      }
      // Told to come back after the budget's end: no retry, and no more requests at all.
      double wait_s = RetryAfterSeconds(r);
      if (wait_s > 0 && wait_s >= s->budget->RemainingSeconds()) {
        s->stop = true;
        break;
      }
      if (attempt >= retry.max_retries) break;
      ++local.retries;
      double delay = std::min(std::max(retry.DelaySeconds(attempt + 1, jitter(rng)), wait_s),
                              std::max(0.0, s->budget->RemainingSeconds()));
      std::this_thread::sleep_for(std::chrono::duration<double>(delay));
    }
  }
  std::lock_guard<std::mutex> lock(s->mu);
  s->errors.Merge(local);
}

// Sleeps until `until` or until the workers stop by themselves.
void WaitUntil(Shared* s, Clock::time_point until) {
  while (Clock::now() < until && !s->stop.load()) {
    if (StopRequested()) {
      s->stop = true;
      break;
    }
    auto left = until - Clock::now();
    std::this_thread::sleep_for(std::min<Clock::duration>(left, std::chrono::milliseconds(20)));
    Sample(s);
  }
}

ThroughputStep RunStep(const HttpProbeEnv& env, const ThroughputProbeOptions& o,
                       BudgetTracker* budget, BlockCursor* cursor, int concurrency, double step_s,
                       double warmup_s, double cycle_s, ErrorTally* errors, bool* budget_hit) {
  // Without a known cycle lane 0 runs alone until one of its requests (not the first) gives
  // one, for at most 60% of the warm-up; every lane's first request starts within it.
  LaneStagger stagger(concurrency, cycle_s, warmup_s * 0.6,
                      warmup_s * 0.6 / std::max(1, concurrency));
  Shared s;
  s.stagger = &stagger;
  s.env = &env;
  s.options = &o;
  s.budget = budget;
  s.cursor = cursor;
  ThroughputStep step;
  if (o.record_timeline) {
    s.timeline = &step.timeline;
    Sample(&s);
  }
  auto start = Clock::now();
  std::vector<std::thread> threads;
  for (int i = 0; i < concurrency; ++i)
    threads.emplace_back(Worker, &s, i, static_cast<unsigned>(i * 7919 + concurrency));
  WaitUntil(&s, start + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(warmup_s)));
  // A budget that ran out during the warm-up leaves no window: measure the whole step then,
  // and say so, rather than report nothing.
  bool stopped_in_warmup = s.stop.load();
  uint64_t bytes0 = stopped_in_warmup ? 0 : s.bytes.load();
  uint64_t req0 = stopped_in_warmup ? 0 : s.requests.load();
  uint64_t fail0 = stopped_in_warmup ? 0 : s.failures.load();
  auto t0 = stopped_in_warmup ? start : Clock::now();
  double epoch0 = EpochSeconds();
  std::vector<SeriesPoint> window;  // bounded: one point per 20 ms of a budget-bounded step
  s.window = &window;
  Sample(&s);
  WaitUntil(&s, start + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(step_s)));
  uint64_t bytes1 = s.bytes.load();
  auto t1 = Clock::now();
  double epoch1 = EpochSeconds();
  Sample(&s);
  s.timeline = nullptr;
  s.window = nullptr;
  step.interval_gbps = IntervalGbps(window, kIntervalS);
  step.noise_gbps = NoiseBandGbps(step.interval_gbps);
  step.concurrency = concurrency;
  step.cycle_s = stagger.cycle_s();
  step.request_gap_s = stagger.gap_s();
  step.requests = s.requests.load() - req0;
  step.errors = s.failures.load() - fail0;
  s.stop = true;
  for (auto& t : threads) t.join();
  step.received_bytes = s.bytes.load();
  step.completed_requests = s.requests.load();
  if (stopped_in_warmup) {
    bytes1 = s.bytes.load();
    t1 = Clock::now();
    epoch1 = EpochSeconds();
    epoch0 = epoch1 - std::chrono::duration<double>(t1 - t0).count();
    step.warmup_included = true;
  }
  step.window_start_epoch_s = epoch0;
  step.window_end_epoch_s = epoch1;
  step.window_s = std::chrono::duration<double>(t1 - t0).count();
  step.window_bytes = bytes1 - bytes0;
  step.gbps =
      step.window_s > 0 ? static_cast<double>(step.window_bytes) * 8 / step.window_s / 1e9 : 0;
  errors->Merge(s.errors);
  *budget_hit = s.budget_hit.load();
  return step;
}

}  // namespace

namespace {

StepRate RateOf(const ThroughputStep& s) { return {s.concurrency, s.gbps, s.noise_gbps}; }

// A repeat of a step that agrees with it lengthens it: bytes and window time add up, the
// intervals pool (so the band narrows with the square root of the time measured). One that
// disagrees measured another state (MergeRuns): the faster run stands, the slower is set aside.
void PoolInto(ThroughputStep* into, ThroughputStep more, double min_gain) {
  // What arrived counts whichever run the rate comes from (CPU per GB, bytes received).
  uint64_t received_bytes = into->received_bytes + more.received_bytes;
  uint64_t completed_requests = into->completed_requests + more.completed_requests;
  RunMerge merge = MergeRuns(RateOf(*into), RateOf(more), min_gain);
  if (merge != RunMerge::kPool) {
    bool keep_new = merge == RunMerge::kKeepSecond;
    std::vector<double> set_aside = std::move(into->set_aside_gbps);
    set_aside.push_back(keep_new ? into->gbps : more.gbps);
    std::vector<SeriesPoint> timeline = std::move(into->timeline);
    timeline.insert(timeline.end(), more.timeline.begin(), more.timeline.end());
    int runs = into->runs + 1;
    if (keep_new) *into = std::move(more);
    into->set_aside_gbps = std::move(set_aside);
    into->timeline = std::move(timeline);
    into->runs = runs;
    into->received_bytes = received_bytes;
    into->completed_requests = completed_requests;
    return;
  }
  into->received_bytes = received_bytes;
  into->completed_requests = completed_requests;
  into->window_bytes += more.window_bytes;
  into->window_s += more.window_s;
  into->requests += more.requests;
  into->errors += more.errors;
  into->gbps =
      into->window_s > 0 ? static_cast<double>(into->window_bytes) * 8 / into->window_s / 1e9 : 0;
  into->interval_gbps.insert(into->interval_gbps.end(), more.interval_gbps.begin(),
                             more.interval_gbps.end());
  into->noise_gbps = NoiseBandGbps(into->interval_gbps);
  into->warmup_included = into->warmup_included || more.warmup_included;
  into->window_end_epoch_s = more.window_end_epoch_s;
  into->timeline.insert(into->timeline.end(), more.timeline.begin(), more.timeline.end());
  ++into->runs;
}

}  // namespace

size_t KneeIndex(const std::vector<ThroughputStep>& steps, double min_gain) {
  std::vector<StepRate> rates;
  for (const ThroughputStep& s : steps) rates.push_back(RateOf(s));
  return KneeOf(rates, min_gain);
}

namespace {

// Plan: the objects to read. Objects smaller than a block measure request overhead, not
// bandwidth (the smallfiles probe measures that): when the prefix also holds objects of a whole
// block or more, read only those.
void KeepWholeBlockObjects(uint64_t block_bytes, std::vector<ObjectInfo>* objects) {
  if (std::any_of(objects->begin(), objects->end(),
                  [&](const ObjectInfo& x) { return x.size_bytes >= block_bytes; })) {
    std::erase_if(*objects, [&](const ObjectInfo& x) { return x.size_bytes < block_bytes; });
  }
}

// Measure: runs steps of N connections into `out->steps`, and knows when the sweep must end
// (budget, stop, errors that rise with the connections).
class StepRunner {
 public:
  StepRunner(const HttpProbeEnv& env, const ThroughputProbeOptions& o, BudgetTracker* budget,
             BlockCursor* cursor, ErrorTally* errors, ThroughputProbeResult* out)
      : env_(env), o_(o), budget_(budget), cursor_(cursor), errors_(errors), out_(out) {
    double remaining = budget->RemainingSeconds();
    step_s_ = o.concurrency > 0       ? remaining
              : o.step_duration_s > 0 ? o.step_duration_s
                                      // 1, 2, 4, 8, a repeated pair, the count between.
                                      : std::max(2.0, remaining / 7);
  }

  // Runs one step of `c` connections, appended, or pooled `into` a step of the same count;
  // false when the sweep must end.
  bool Run(int c, ThroughputStep* into) {
    double left = budget_->RemainingSeconds();
    if (left < 0.2 || StopRequested()) return false;
    // A little room at the end so in-flight requests are cut by the window, not the deadline.
    double this_step = std::min(step_s_, left - std::min(0.1, left * 0.02));
    double warmup =
        o_.warmup_s >= 0 ? std::min(o_.warmup_s, this_step / 2) : std::min(1.0, this_step * 0.2);
    env_.Progress(
        fmt::format("throughput: {} connection{} for {:.1f} s", c, c == 1 ? "" : "s", this_step));
    // The one-connection step measured the cycle (round trip + one block) to spread over.
    const std::vector<ThroughputStep>& steps = out_->steps;
    double cycle_s = o_.concurrency > 0 || steps.empty() || steps.front().concurrency != 1
                         ? 0
                         : MeanRequestSeconds(1, steps.front().window_s, steps.front().requests);
    ThroughputStep step =
        RunStep(env_, o_, budget_, cursor_, c, this_step, warmup, cycle_s, errors_, &budget_hit_);
    if (out_->cycle_s == 0) out_->cycle_s = step.cycle_s;
    env_.Progress(fmt::format(
        "throughput: {} connection{}: {:.3f} +- {:.3f} Gbit/s{}", c, c == 1 ? "" : "s", step.gbps,
        step.noise_gbps,
        step.request_gap_s > 0
            ? fmt::format(" (requests at least {:.1f} ms apart)", step.request_gap_s * 1e3)
            : ""));
    double attempts = static_cast<double>(step.requests + step.errors);
    double error_rate = attempts > 0 ? static_cast<double>(step.errors) / attempts : 0;
    if (into) {
      double before_gbps = into->gbps, new_gbps = step.gbps;
      size_t set_aside = into->set_aside_gbps.size();
      PoolInto(into, std::move(step), o_.min_gain);
      if (into->set_aside_gbps.size() > set_aside)
        env_.Progress(fmt::format(
            "throughput: {} connection{}: runs disagree beyond both bands ({:.3f}, then {:.3f} "
            "Gbit/s); the slower run is set aside",
            c, c == 1 ? "" : "s", before_gbps, new_gbps));
    } else {
      out_->steps.push_back(std::move(step));
    }
    if (budget_hit_ || StopRequested()) return false;
    // An answer that is not the one asked for (a Range ignored, gzip): more connections would
    // only get more of it, each costing the server its send buffer.
    if (errors_->wrong_answers > 0) return false;
    if (out_->steps.size() >= 2 && error_rate > worst_error_rate_ + 0.01)
      return false;  // errors rise
    worst_error_rate_ = std::max(worst_error_rate_, error_rate);
    return true;
  }

  // Time for one more run of a step, so a repeat or a refinement is not a truncated step.
  bool Room() const { return budget_->RemainingSeconds() >= std::min(step_s_, 2.0) + 0.2; }
  // A repeated pair must leave room for the count between two doublings.
  bool RoomForPair() const { return budget_->RemainingSeconds() >= 3 * step_s_; }
  bool budget_hit() const { return budget_hit_; }

 private:
  const HttpProbeEnv& env_;
  const ThroughputProbeOptions& o_;
  BudgetTracker* budget_;
  BlockCursor* cursor_;
  ErrorTally* errors_;
  ThroughputProbeResult* out_;
  double step_s_ = 0;
  bool budget_hit_ = false;
  double worst_error_rate_ = 0;
};

// Measure: 1, 2, 4, ... connections while doubling gains beyond the noise; false when the
// budget, a stop or errors ended it.
bool SweepDoublings(const ThroughputProbeOptions& o, StepRunner* runner,
                    std::vector<ThroughputStep>* steps) {
  bool going = runner->Run(1, nullptr);
  int c = 1;
  while (going && c * 2 <= std::max(1, o.max_concurrency)) {
    c *= 2;
    if (!(going = runner->Run(c, nullptr))) break;
    ThroughputStep& prev = (*steps)[steps->size() - 2];
    ThroughputStep& cur = steps->back();
    StepGain gain = CompareSteps(RateOf(prev), RateOf(cur), o.min_gain);
    // Inside the noise, or a loss: measure both longer until the band resolves it or the
    // repeats or the budget run out (at 50 ms RTT one run measured 2 connections at 0.79
    // and 4 at 0.74 Gbit/s, where most give 0.6 and 0.8). A gain that never leaves the
    // noise is no gain.
    for (int r = 0; gain != StepGain::kGained && r < o.max_repeats && runner->RoomForPair(); ++r) {
      if (!(going = runner->Run(c, &steps->back()))) break;
      if (!runner->Room()) break;
      if (!(going = runner->Run(c / 2, &(*steps)[steps->size() - 2]))) break;
      gain = CompareSteps(RateOf((*steps)[steps->size() - 2]), RateOf(steps->back()), o.min_gain);
    }
    if (gain != StepGain::kGained) break;
  }
  return going;
}

// Measure: the knee between two doublings (2 -> 4, 4 -> 8): the count between them may already
// be enough (a 50 ms RTT at 1 Gbit/s needs about 3 connections of 4 MiB).
void RefineKnee(const ThroughputProbeOptions& o, StepRunner* runner,
                std::vector<ThroughputStep>* steps) {
  size_t knee = KneeIndex(*steps, o.min_gain);
  if (knee == 0 || !runner->Room()) return;
  int lower = (*steps)[knee - 1].concurrency, upper = (*steps)[knee].concurrency;
  int middle = lower + (upper - lower) / 2;
  if (middle <= lower || middle >= upper) return;
  size_t at = steps->size();
  runner->Run(middle, nullptr);
  if (steps->size() <= at) return;
  // In concurrency order, also when the budget cut it.
  ThroughputStep mid = std::move((*steps)[at]);
  steps->erase(steps->begin() + static_cast<std::ptrdiff_t>(at));
  steps->insert(steps->begin() + static_cast<std::ptrdiff_t>(knee), std::move(mid));
  // One run of the middle short of the doubling above would move the knee up on that run
  // alone (at 50 ms RTT 3 connections once ran at 0.755 Gbit/s where 4 reached 0.963, and
  // 0.965 in the other sweeps): measure it again on fresh connections.
  if (MiddleFellShort(RateOf((*steps)[knee]), RateOf((*steps)[knee + 1]), o.min_gain) &&
      runner->Room() && !StopRequested())
    runner->Run(middle, &(*steps)[knee]);
}

// Measure: every step the options ask for, and the CPU they cost; true when the budget ended
// a step.
bool MeasureSteps(const HttpProbeEnv& env, const ThroughputProbeOptions& o, BudgetTracker* budget,
                  BlockCursor* cursor, ErrorTally* errors, ThroughputProbeResult* out) {
  StepRunner runner(env, o, budget, cursor, errors, out);
  double cpu0 = CpuSeconds();
  if (o.concurrency > 0) {
    runner.Run(o.concurrency, nullptr);
  } else if (SweepDoublings(o, &runner, &out->steps)) {
    RefineKnee(o, &runner, &out->steps);
  }
  out->cpu_s = CpuSeconds() - cpu0;
  return runner.budget_hit();
}

}  // namespace

ThroughputProbeResult RunThroughputProbe(const HttpProbeEnv& env, const ThroughputProbeOptions& o) {
  ThroughputProbeResult out;
  ProbeResult& result = out.result;
  result.probe = "throughput";
  BudgetTracker budget(env.budget);
  ErrorTally errors;

  DiscoveryResult found;
  {
    std::unique_ptr<HttpClient> client = env.make_client();
    found = DiscoverObjects(env, client.get(), &budget, &errors, o.max_objects);
  }
  if (found.objects.empty()) {
    result.status = DiscoveryStatus(found);
    result.message = found.error;
    result.requests_sent = budget.requests();
    result.elapsed_s = budget.ElapsedSeconds();
    errors.AddFacts(&result.evidence.facts, {FactOrigin::kMeasured, "probe throughput"});
    return out;
  }
  KeepWholeBlockObjects(o.block_bytes, &found.objects);
  BlockCursor cursor(found.objects, o.block_bytes);
  const bool budget_hit = MeasureSteps(env, o, &budget, &cursor, &errors, &out);

  result.requests_sent = budget.requests();
  result.bytes_received = budget.received_bytes();
  result.bytes_charged = budget.bytes();
  result.elapsed_s = budget.ElapsedSeconds();
  const StepTotals totals = SummarizeSteps(o, &out);
  Provenance p{FactOrigin::kMeasured,
               fmt::format("probe throughput ({} MiB blocks, {} connections, {} object{})",
                           o.block_bytes >> 20,
                           o.concurrency > 0 ? std::to_string(o.concurrency) : std::string("auto"),
                           found.objects.size(), found.objects.size() == 1 ? "" : "s")};
  AddThroughputFacts(out, o, totals, found.objects.size(), p, &result.evidence.facts);
  errors.AddFacts(&result.evidence.facts, p);
  result.evidence.series.push_back(ThroughputByConcurrency(out.steps));
  JudgeThroughputRun(out, totals, budget_hit, found.skipped, budget, errors, &result);
  return out;
}

}  // namespace feedcheck
