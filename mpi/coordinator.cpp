#include "mpi/coordinator.h"

#include <fmt/format.h>

#include <chrono>
#include <thread>

#include "core/diagnostic_codes.h"
#include "core/json_input.h"
#include "core/json_text.h"

namespace feedcheck {

double EpochNow() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

void SleepUntilEpoch(double epoch_s) {
  double left = epoch_s - EpochNow();
  if (left > 0) std::this_thread::sleep_for(std::chrono::duration<double>(left));
}

int AgreeToStart(const MpiWorld& w, int status, const std::string& error,
                 std::vector<std::string>* failures) {
  std::string line =
      status == 0 ? "" : fmt::format("rank {} ({}): {}", w.rank(), HostName(), error);
  std::vector<std::string> lines = w.Gather(line);
  if (w.root()) {
    // The same flag error on every rank is one message, not N.
    std::string previous_error;
    for (const std::string& l : lines) {
      if (l.empty()) continue;
      size_t at = l.find("): ");
      std::string why = at == std::string::npos ? l : l.substr(at + 3);
      if (why == previous_error) continue;
      previous_error = why;
      failures->push_back(l);
    }
  }
  return w.AllMax(status);
}

std::vector<RankReport> RunSynchronizedStep(const MpiWorld& w, int active_ranks, double idle_s,
                                            const MeasureFn& measure,
                                            std::vector<std::string>* errors) {
  w.Barrier();
  double start = w.Broadcast(w.root() ? EpochNow() + kStartLeadS : 0);
  SleepUntilEpoch(start);
  RankReport rep;
  if (w.rank() >= active_ranks) {
    rep.rank = w.rank();
    rep.host = HostName();
    rep.active = false;
    SleepUntilEpoch(start + idle_s);
  } else {
    rep = measure(start);
    rep.rank = w.rank();
    rep.host = HostName();
  }
  std::vector<std::string> texts = w.Gather(JsonText(rep.ToJson(), -1));
  std::vector<RankReport> reports;
  for (size_t i = 0; i < texts.size(); ++i) {
    std::string error;
    DiagnosticList diags;
    auto parsed = ParseJsonInput(
        texts[i], JsonSource{fmt::format("rank {}", i), codes::kRankReportUnreadable, &diags});
    if (!parsed && !diags.kept().empty()) error = diags.kept()[0].message;
    auto r = parsed ? RankReport::FromJson(*parsed, &error) : std::nullopt;
    if (r) {
      reports.push_back(std::move(*r));
    } else {
      errors->push_back(fmt::format("rank {} sent an unreadable report: {}", i, error));
    }
  }
  return reports;
}

std::vector<std::vector<RankReport>> RunSteps(const MpiWorld& w, bool ramp, double step_s,
                                              const MeasureFn& measure,
                                              std::vector<std::string>* errors) {
  std::vector<std::vector<RankReport>> steps;
  for (int active = ramp ? 1 : w.size(); active <= w.size(); ++active) {
    std::vector<RankReport> reports = RunSynchronizedStep(w, active, step_s, measure, errors);
    if (w.root()) steps.push_back(std::move(reports));
  }
  return steps;
}

}  // namespace feedcheck
