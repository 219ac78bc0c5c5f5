#include "app/fleet_json.h"

#include <algorithm>
#include <string>

#include "reports/json_fields.h"

namespace feedcheck {

using nlohmann::json;

namespace {

using namespace json_fields;

// Unknown (< 0) is null, so a script never sums a -1.
json Known(double v) { return v < 0 ? json(nullptr) : json(v); }
json Known(int v) { return v < 0 ? json(nullptr) : json(v); }

json JobToJson(const FleetJob& r) {
  json j = {{"job", r.job},
            {"path", r.path},
            {"diagnosed", r.diagnosed},
            {"nodes", Known(r.nodes)},
            {"gpus", Known(r.gpus)},
            {"duration_s", Known(r.duration_s)},
            {"gpu_lost_gpu_s", Known(r.gpu_lost_gpu_s)},
            {"cause_gpu_s", Known(r.cause_gpu_s)},
            {"cause", r.cause},
            {"confidence", r.confidence},
            {"gpu_time_measured", r.gpu_time_measured},
            {"verdict_level", r.verdict_level},
            {"fix",
             {{"id", r.fix_id},
              {"title", r.fix_title},
              {"advice", r.fix},
              {"buys", r.fix_buys},
              {"won_back_gpu_s", Known(r.won_back_gpu_s)},
              {"won_back_estimated", r.won_back_estimated}}},
            {"accounts", r.accounts}};
  if (!r.problem.empty()) j["problem"] = r.problem;
  if (!r.sku.empty()) j["sku"] = r.sku;
  if (r.usd_per_gpu_hour >= 0) j["gpu_hour_usd"] = r.usd_per_gpu_hour;
  if (r.lost_usd >= 0) {
    j["lost_usd_estimate"] = r.lost_usd;
    j["fix"]["won_back_usd_estimate"] = Known(r.won_back_usd);
  }
  if (r.loader_wait_fraction >= 0) {
    j["loader_wait_fraction"] = r.loader_wait_fraction;
    j["data_wait_cause"] = r.data_wait_cause;
  }
  return j;
}

FleetJob JobFromJson(const json& j) {
  FleetJob r;
  r.job = Text(j, "job");
  r.path = Text(j, "path");
  r.diagnosed = Flag(j, "diagnosed");
  r.problem = Text(j, "problem");
  r.nodes = Int(j, "nodes", -1);
  r.gpus = Int(j, "gpus", -1);
  r.duration_s = Num(j, "duration_s", -1);
  r.gpu_lost_gpu_s = Num(j, "gpu_lost_gpu_s", -1);
  r.cause_gpu_s = Num(j, "cause_gpu_s", -1);
  r.cause = Text(j, "cause");
  r.confidence = Text(j, "confidence");
  // A fleet saved before the field: GPU time was measured where a loss was counted.
  r.gpu_time_measured = j.contains("gpu_time_measured") ? Flag(j, "gpu_time_measured")
                                                        : r.diagnosed && r.gpu_lost_gpu_s >= 0;
  r.verdict_level = Text(j, "verdict_level");
  const json& fix = Object(j, "fix");
  r.fix_id = Text(fix, "id");
  r.fix_title = Text(fix, "title");
  r.fix = Text(fix, "advice");
  r.fix_buys = Text(fix, "buys");
  r.won_back_gpu_s = Num(fix, "won_back_gpu_s", -1);
  r.won_back_estimated = Flag(fix, "won_back_estimated");
  r.won_back_usd = Num(fix, "won_back_usd_estimate", -1);
  r.accounts = Texts(j, "accounts");
  r.lost_usd = Num(j, "lost_usd_estimate", -1);
  r.sku = Text(j, "sku");
  r.usd_per_gpu_hour = Num(j, "gpu_hour_usd", -1);
  r.loader_wait_fraction = Num(j, "loader_wait_fraction", -1);
  r.data_wait_cause = Text(j, "data_wait_cause");
  return r;
}

}  // namespace

json FleetToJson(const FleetSummary& f) {
  const bool priced = f.priced();
  json jobs = json::array();
  for (const auto& r : f.jobs) jobs.push_back(JobToJson(r));
  json causes = json::array();
  for (const auto& c : f.causes) {
    json j = {{"cause", c.cause}, {"jobs", c.jobs}, {"gpu_lost_gpu_s", c.gpu_lost_gpu_s}};
    if (priced) j["lost_usd_estimate"] = c.lost_usd;
    causes.push_back(std::move(j));
  }
  json fixes = json::array();
  for (const auto& x : f.fixes) {
    json j = {{"id", x.fix_id},
              {"title", x.title},
              {"advice", x.fix},
              {"jobs", x.jobs},
              {"estimated_jobs", x.estimated_jobs},
              {"won_back_gpu_s", x.won_back_gpu_s}};
    if (priced) j["won_back_usd_estimate"] = x.won_back_usd;
    fixes.push_back(std::move(j));
  }
  json accounts = json::array();
  for (const auto& a : f.accounts) {
    json j = {{"account", a.account},
              {"jobs", a.jobs},
              {"throttled_jobs", a.throttled_jobs},
              {"causes", a.causes},
              {"throttled_gpu_s", a.throttled_gpu_s},
              {"finding", a.finding}};
    if (priced) j["lost_usd_estimate"] = a.lost_usd;
    accounts.push_back(std::move(j));
  }
  json totals = {{"jobs", f.jobs.size()},
                 {"diagnosed", f.diagnosed},
                 {"not_diagnosed", f.not_diagnosed},
                 {"with_gpu_samples", f.with_gpu_samples},
                 {"gpu_lost_gpu_s", f.gpu_lost_gpu_s},
                 {"won_back_gpu_s", f.won_back_gpu_s},
                 {"by_cause", std::move(causes)},
                 {"fixes", std::move(fixes)},
                 {"accounts", std::move(accounts)}};
  if (priced) {
    totals["price"] = {{"gpu_hour_usd", f.gpu_hour_price_usd}, {"note", f.price_note}};
    totals["lost_usd_estimate"] = f.lost_usd;
    totals["won_back_usd_estimate"] = f.won_back_usd;
  }
  return {{"root", f.root},       {"layout", f.layout},      {"workers", f.workers},
          {"skipped", f.skipped}, {"jobs", std::move(jobs)}, {"totals", std::move(totals)}};
}

FleetSummary FleetFromJson(const json& j) {
  FleetSummary f;
  if (!j.is_object()) return f;
  f.present = true;
  f.root = Text(j, "root");
  f.layout = Text(j, "layout");
  f.workers = std::max(0, Int(j, "workers", -1));
  f.skipped = Texts(j, "skipped");
  for (const auto& r : Array(j, "jobs"))
    if (r.is_object()) f.jobs.push_back(JobFromJson(r));
  const json& t = Object(j, "totals");
  f.diagnosed = std::max(0, Int(t, "diagnosed", -1));
  f.not_diagnosed = std::max(0, Int(t, "not_diagnosed", -1));
  f.with_gpu_samples = std::max(0, Int(t, "with_gpu_samples", -1));
  f.gpu_lost_gpu_s = std::max(0.0, Num(t, "gpu_lost_gpu_s", -1));
  f.won_back_gpu_s = std::max(0.0, Num(t, "won_back_gpu_s", -1));
  const json& price = Object(t, "price");
  f.gpu_hour_price_usd = Num(price, "gpu_hour_usd", -1);
  f.price_note = Text(price, "note");
  f.lost_usd = Num(t, "lost_usd_estimate", -1);
  f.won_back_usd = Num(t, "won_back_usd_estimate", -1);
  for (const auto& c : Array(t, "by_cause")) {
    if (!c.is_object()) continue;
    f.causes.push_back({Text(c, "cause"), std::max(0, Int(c, "jobs", -1)),
                        std::max(0.0, Num(c, "gpu_lost_gpu_s", -1)),
                        Num(c, "lost_usd_estimate", -1)});
  }
  for (const auto& x : Array(t, "fixes")) {
    if (!x.is_object()) continue;
    FleetFixTotal fix;
    fix.fix_id = Text(x, "id");
    fix.title = Text(x, "title");
    fix.fix = Text(x, "advice");
    fix.jobs = Texts(x, "jobs");
    fix.estimated_jobs = std::max(0, Int(x, "estimated_jobs", -1));
    fix.won_back_gpu_s = std::max(0.0, Num(x, "won_back_gpu_s", -1));
    fix.won_back_usd = Num(x, "won_back_usd_estimate", -1);
    f.fixes.push_back(std::move(fix));
  }
  for (const auto& a : Array(t, "accounts")) {
    if (!a.is_object()) continue;
    FleetAccount acc;
    acc.account = Text(a, "account");
    acc.jobs = Texts(a, "jobs");
    acc.throttled_jobs = Texts(a, "throttled_jobs");
    acc.causes = Texts(a, "causes");
    acc.throttled_gpu_s = std::max(0.0, Num(a, "throttled_gpu_s", -1));
    acc.lost_usd = Num(a, "lost_usd_estimate", -1);
    acc.finding = Text(a, "finding");
    f.accounts.push_back(std::move(acc));
  }
  SetFleetOrders(&f);
  return f;
}

}  // namespace feedcheck
