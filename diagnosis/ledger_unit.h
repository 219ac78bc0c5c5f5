// The idle ledger's view of one node (or of the whole job): its data runtime's activities as
// spans of time, the refusals it met, its reads, its stops, and its idle GPU time. Shared by the
// ledger (diagnosis/idle_ledger) and its placer (diagnosis/ledger_placer); nothing else uses it.
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/series_at.h"
#include "core/evidence.h"

namespace feedcheck::diagnosis::ledger {

// Storage refusals are logged per request and the metrics per minute. A refused request is
// retried after an exponential backoff (rslex: 250 ms first, doubling, AZUREML_DATASET_HTTP_-
// RETRY_COUNT retries, its default in core/runtime_settings), so a node may wait up to its last
// delay after its last logged refusal: a refusal covers that much more each side, and never
// more than this.
inline constexpr double kRefusalPadS = 60;
inline constexpr double kFirstRetryDelayS = 0.25;
inline constexpr double kInf = std::numeric_limits<double>::infinity();
// A mount node's log that shows its reads, silent this long, read nothing from storage then.
inline constexpr double kReadsSilenceS = 300;

struct Span {
  double start, end;
};

bool Inside(const std::vector<Span>& spans, double t);

// What the data runtime of one node (or of the whole job) did, as spans.
struct Activities {
  std::vector<Span> downloads;
  std::vector<Span> mounts;  // from the mount until the first upload after it, or for good
  std::vector<Span> uploads;
  std::optional<double> first_data;
  bool any = false;
};

/// The activities of `node` in the timeline's data-runtime lane (all of them for null).
Activities ActivitiesOf(const std::vector<TimelineInterval>& timeline, const std::string* node);

// One node's (or the job's) idle GPU time, and what it met.
struct LedgerUnit {
  std::string node;  // "" for the job as a whole
  const Series* lost = nullptr;
  const Series* sample_t = nullptr;  // when each bucket's idle time was sampled (per node)
  Activities activities;
  std::vector<Span> refusals;
  // The same, as they were logged: a checkpoint holds the GPUs through its whole write, so
  // only these minutes of it were refused (no recovery to allow for).
  std::vector<Span> refusals_unpadded;
  // Its own refusals as they were logged (or the account's, for a unit without its log): where
  // it was refused, not where a retry may still have kept it waiting.
  std::vector<Span> refused_lines;
  // When its data runtime closed read spans (empty when its log has none: DEBUG not on).
  std::vector<Span> reads;
  // The end of the last of them (none without reads).
  std::optional<double> last_read_s;
  // Its silences beyond the ordinary gaps between those closes (their fence, when known).
  std::vector<Span> read_silences;
  std::optional<double> read_gap_fence_s;
  // Where all its GPUs stopped together for longer than its waits for input explain.
  std::vector<Span> own_phases;
  // Where all its GPUs stopped together at all (from its input's start).
  std::vector<Span> whole_stops;
  // Its stops of its own at the profile's declared checkpoint cadence, where no Ingress metric
  // says when the job wrote (diagnosis/checkpoint_stops.h).
  std::vector<Span> declared_checkpoints;
  // Its CPU utilisation per minute (Azure ML's CpuUtilization), where the metric names it.
  analyzers::SeriesAt cpu{nullptr};
  double samples_end = kInf;  // the end of its last GPU sample's bucket
  bool reads_nothing = false;
  bool own_log = false;  // the node's own rslex log was read (the job's, for the job's unit)
  // Its own log shows an access failure (a 403/404 refusal, a failed activity).
  bool met_access_failure = false;
  // Refusals covered most of this unit's idle time in the mount: the mount's condition, so its
  // idle time that nothing else places is theirs (an asynchronous read logs no time of its own).
  bool mount_mostly_refused = false;
};

/// How far a refusal covers each side: the data runtime's last retry delay (from its retry
/// count), at most kRefusalPadS.
double RefusalPadS(const FactSet& facts);
/// The intervals padded by `pad_s` each side; the account metrics' throttled minutes (status
/// "metrics") not at all.
std::vector<Span> Padded(const std::vector<const TimelineInterval*>& ivs,
                         double pad_s = kRefusalPadS);
/// How far apart a node's log wrote its refusal lines while it was refused: the intervals'
/// length (each from its first line to a second past its last) over the lines between their
/// ends; 0 where no interval holds two lines. `lines` counts every refusal the log wrote.
double RefusalLineGapS(const std::vector<const TimelineInterval*>& ivs, double lines);
/// The length of `s` covered by the union of `by`.
double Covered(const Span& s, const std::vector<Span>& by);
/// The timeline's `reads` lane (span closes) as spans.
std::vector<Span> ReadSpans(const std::vector<TimelineInterval>& timeline);
/// The timeline's `read silences` lane of `node` ("" for the job's) as spans.
std::vector<Span> ReadSilences(const std::vector<TimelineInterval>& timeline,
                               const std::string& node);
/// The node's log shows reads (spans), but none within a silence of kReadsSilenceS or more
/// around t (to the next read, or to `samples_end`): a log writes its spans at its own pace,
/// and a shorter gap may be only that.
bool ReadsSilent(const std::vector<Span>& reads, double t, double samples_end);

}  // namespace feedcheck::diagnosis::ledger
