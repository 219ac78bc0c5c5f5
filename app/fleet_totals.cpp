#include "app/fleet_totals.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "app/fleet_job.h"

namespace feedcheck::app {
namespace {

constexpr const char* kOtherIdle = "other idle time (not the job's cause)";

double Usd(double gpu_s, double usd_per_gpu_hour) {
  return gpu_s < 0 ? -1 : gpu_s / 3600 * usd_per_gpu_hour;
}

void AddCauses(FleetSummary* f) {
  std::map<std::string, FleetCauseTotal> by;
  for (const auto& j : f->jobs) {
    if (!j.diagnosed) continue;
    FleetCauseTotal& c = by[j.cause];
    c.cause = j.cause;
    ++c.jobs;
    if (j.gpu_lost_gpu_s < 0) continue;
    // The part the diagnosis gave the cause goes to the cause; the rest of the idle time (the
    // job's own code, before the data runtime started) is not that cause's.
    double to_cause =
        j.cause_gpu_s >= 0 ? std::min(j.cause_gpu_s, j.gpu_lost_gpu_s) : j.gpu_lost_gpu_s;
    c.gpu_lost_gpu_s += to_cause;
    if (j.gpu_lost_gpu_s - to_cause > 0) {
      FleetCauseTotal& other = by[kOtherIdle];
      other.cause = kOtherIdle;
      ++other.jobs;
      other.gpu_lost_gpu_s += j.gpu_lost_gpu_s - to_cause;
    }
  }
  for (auto& [name, c] : by) f->causes.push_back(std::move(c));
  std::stable_sort(f->causes.begin(), f->causes.end(), [](const auto& a, const auto& b) {
    return a.gpu_lost_gpu_s != b.gpu_lost_gpu_s ? a.gpu_lost_gpu_s > b.gpu_lost_gpu_s
                                                : a.jobs > b.jobs;
  });
}

void AddFixes(FleetSummary* f) {
  std::map<std::string, FleetFixTotal> by;
  for (const auto& j : f->jobs) {
    if (!j.diagnosed || j.fix_id.empty()) continue;
    FleetFixTotal& x = by[j.fix_id];
    if (x.jobs.empty()) {
      x.fix_id = j.fix_id;
      x.title = j.fix_title;
      x.fix = j.fix;
    }
    x.jobs.push_back(j.job);
    if (j.won_back_gpu_s > 0) x.won_back_gpu_s += j.won_back_gpu_s;
    if (j.won_back_estimated) ++x.estimated_jobs;
  }
  for (auto& [id, x] : by) {
    f->won_back_gpu_s += x.won_back_gpu_s;
    f->fixes.push_back(std::move(x));
  }
  std::stable_sort(f->fixes.begin(), f->fixes.end(), [](const auto& a, const auto& b) {
    return a.won_back_gpu_s != b.won_back_gpu_s ? a.won_back_gpu_s > b.won_back_gpu_s
                                                : a.jobs.size() > b.jobs.size();
  });
}

void AddAccounts(FleetSummary* f) {
  std::map<std::string, FleetAccount> by;
  for (const auto& j : f->jobs) {
    for (const auto& name : j.accounts) {
      FleetAccount& a = by[name];
      a.account = name;
      a.jobs.push_back(j.job);
      if (!IsAccountThrottle(j.cause)) continue;
      a.throttled_jobs.push_back(j.job);
      if (std::find(a.causes.begin(), a.causes.end(), j.cause) == a.causes.end())
        a.causes.push_back(j.cause);
      double lost = j.cause_gpu_s >= 0 ? j.cause_gpu_s : j.gpu_lost_gpu_s;
      if (lost > 0) a.throttled_gpu_s += lost;
    }
  }
  for (auto& [name, a] : by) {
    const size_t n = a.jobs.size(), k = a.throttled_jobs.size();
    const std::string whom = n == 1   ? "the one job that read it"
                             : k == n ? fmt::format("all {} jobs that read it", n)
                                      : fmt::format("{} of the {} jobs that read it", k, n);
    if (k == 0)
      a.finding = n == 1 ? "did not throttle the one job that read it"
                         : fmt::format("throttled none of the {} jobs that read it", n);
    else
      a.finding = fmt::format("throttled {} ({}): {:.1f} GPU-hours lost to it{}", whom,
                              fmt::join(a.causes, ", "), a.throttled_gpu_s / 3600,
                              k > 1 ? "; one account: one finding, one fix for all of them" : "");
    f->accounts.push_back(std::move(a));
  }
  std::stable_sort(f->accounts.begin(), f->accounts.end(), [](const auto& a, const auto& b) {
    if (a.throttled_jobs.size() != b.throttled_jobs.size())
      return a.throttled_jobs.size() > b.throttled_jobs.size();
    return a.throttled_gpu_s > b.throttled_gpu_s;
  });
}

}  // namespace

void AddFleetTotals(FleetSummary* f) {
  f->causes.clear();
  f->fixes.clear();
  f->accounts.clear();
  f->diagnosed = f->not_diagnosed = f->with_gpu_samples = 0;
  f->gpu_lost_gpu_s = f->won_back_gpu_s = 0;
  for (const auto& j : f->jobs) {
    if (!j.diagnosed) {
      ++f->not_diagnosed;
      continue;
    }
    ++f->diagnosed;
    if (j.gpu_lost_gpu_s >= 0) {
      ++f->with_gpu_samples;
      f->gpu_lost_gpu_s += j.gpu_lost_gpu_s;
    }
  }
  AddCauses(f);
  AddFixes(f);
  AddAccounts(f);
}

void PriceFleet(double usd_per_gpu_hour, FleetSummary* f) {
  f->gpu_hour_price_usd = usd_per_gpu_hour;
  if (usd_per_gpu_hour < 0) return;
  const double p = usd_per_gpu_hour;
  f->price_note = fmt::format(
      "every dollar figure is an estimate from the price you gave (--gpu-hour-price {:.2f} USD "
      "per GPU-hour), not a bill: reservations, discounts and the VM's other costs are not in it",
      p);
  for (auto& j : f->jobs) {
    j.lost_usd = Usd(j.gpu_lost_gpu_s, p);
    j.won_back_usd = Usd(j.won_back_gpu_s, p);
  }
  for (auto& c : f->causes) c.lost_usd = Usd(c.gpu_lost_gpu_s, p);
  for (auto& x : f->fixes) x.won_back_usd = Usd(x.won_back_gpu_s, p);
  for (auto& a : f->accounts) a.lost_usd = Usd(a.throttled_gpu_s, p);
  f->lost_usd = Usd(f->gpu_lost_gpu_s, p);
  f->won_back_usd = Usd(f->won_back_gpu_s, p);
}

}  // namespace feedcheck::app
