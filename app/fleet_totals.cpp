#include "app/fleet_totals.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "app/fleet_job.h"
#include "core/money.h"

namespace feedcheck::app {
namespace {

constexpr const char* kOtherIdle = kFleetOtherIdle;

double Usd(double gpu_s, double usd_per_gpu_hour) {
  return gpu_s < 0 ? -1 : gpu_s / 3600 * usd_per_gpu_hour;
}

// The part of a job's idle time the diagnosis gave its cause; the rest of it (the job's own
// code, before the data runtime started) is not that cause's.
double ToCause(const FleetJob& j) {
  return j.cause_gpu_s >= 0 ? std::min(j.cause_gpu_s, j.gpu_lost_gpu_s) : j.gpu_lost_gpu_s;
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
    const double to_cause = ToCause(j);
    c.gpu_lost_gpu_s += to_cause;
    if (j.gpu_lost_gpu_s - to_cause > 0) {
      FleetCauseTotal& other = by[kOtherIdle];
      other.cause = kOtherIdle;
      ++other.jobs;
      other.gpu_lost_gpu_s += j.gpu_lost_gpu_s - to_cause;
    }
  }
  for (auto& [name, c] : by) f->causes.push_back(std::move(c));
  auto order = [](const FleetCauseTotal& c) {
    const std::string kind = CauseKind(c.cause);
    return kind == "storage" ? 0 : kind == "not storage" ? 1 : 2;
  };
  std::stable_sort(f->causes.begin(), f->causes.end(), [&](const auto& a, const auto& b) {
    if (order(a) != order(b)) return order(a) < order(b);
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

std::vector<std::string> PriceFleet(double given_usd_per_gpu_hour, const KnowledgeBase& kb,
                                    FleetSummary* f) {
  f->gpu_hour_price_usd = -1;
  f->lost_usd = f->won_back_usd = -1;
  f->price_note.clear();
  std::map<std::string, GpuHourPrice> by_sku;
  std::map<std::string, int> missing;  // why a size is not priced -> jobs
  std::set<std::string> bases;
  std::set<double> prices;
  for (auto& j : f->jobs) {
    j.usd_per_gpu_hour = j.lost_usd = j.won_back_usd = -1;
    if (!j.diagnosed) continue;
    auto it = by_sku.find(j.sku);
    if (it == by_sku.end())
      it = by_sku
               .emplace(j.sku, ChooseGpuHourPrice(given_usd_per_gpu_hour, j.sku,
                                                  j.sku.empty() ? nullptr : kb.FindVm(j.sku)))
               .first;
    const GpuHourPrice& price = it->second;
    if (!price.known()) {
      // A job without a size named is not priced, silently: nothing claimed its price.
      if (!j.sku.empty()) ++missing[price.missing];
      continue;
    }
    j.usd_per_gpu_hour = price.usd_per_gpu_hour;
    j.lost_usd = GpuTimeUsd(j.gpu_lost_gpu_s, price);
    j.won_back_usd = GpuTimeUsd(j.won_back_gpu_s, price);
    bases.insert(price.basis);
    prices.insert(price.usd_per_gpu_hour);
  }
  std::vector<std::string> unpriced;
  for (const auto& [why, jobs] : missing)
    unpriced.push_back(fmt::format("{} ({} job{})", why, jobs, jobs == 1 ? "" : "s"));
  if (bases.empty()) return unpriced;
  if (prices.size() == 1) f->gpu_hour_price_usd = *prices.begin();
  f->price_note = fmt::format(
      "every dollar figure is an estimate from {}, not a bill: your region, reservations, "
      "savings plans, discounts and the jobs' other costs are not in it{}",
      fmt::join(bases, "; and "),
      unpriced.empty() ? "" : fmt::format("; not priced: {}", fmt::join(unpriced, "; ")));

  // Totals: each job's share at its own price.
  auto add = [](double* total, double usd) {
    if (usd < 0) return;
    *total = std::max(0.0, *total) + usd;
  };
  std::map<std::string, double> cause_usd, fix_usd, account_usd;
  for (const auto& j : f->jobs) {
    if (j.usd_per_gpu_hour < 0) continue;
    const double p = j.usd_per_gpu_hour;
    add(&f->lost_usd, Usd(j.gpu_lost_gpu_s, p));
    if (j.gpu_lost_gpu_s >= 0) {
      const double to_cause = ToCause(j);
      cause_usd[j.cause] += to_cause / 3600 * p;
      if (j.gpu_lost_gpu_s - to_cause > 0)
        cause_usd[kOtherIdle] += (j.gpu_lost_gpu_s - to_cause) / 3600 * p;
    }
    if (!j.fix_id.empty() && j.won_back_gpu_s > 0) {
      fix_usd[j.fix_id] += j.won_back_gpu_s / 3600 * p;
      add(&f->won_back_usd, j.won_back_gpu_s / 3600 * p);
    }
    if (IsAccountThrottle(j.cause)) {
      const double lost = j.cause_gpu_s >= 0 ? j.cause_gpu_s : j.gpu_lost_gpu_s;
      for (const auto& a : j.accounts)
        if (lost > 0) account_usd[a] += lost / 3600 * p;
    }
  }
  if (f->won_back_usd < 0) f->won_back_usd = 0;
  for (auto& c : f->causes) c.lost_usd = cause_usd.count(c.cause) ? cause_usd[c.cause] : 0;
  for (auto& x : f->fixes) x.won_back_usd = fix_usd.count(x.fix_id) ? fix_usd[x.fix_id] : 0;
  for (auto& a : f->accounts)
    a.lost_usd = account_usd.count(a.account) ? account_usd[a.account] : 0;
  return unpriced;
}

}  // namespace feedcheck::app
