#include "core/result_compare.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/fact_registry.h"

namespace feedcheck {
namespace {

bool Contains(const std::string& text, const char* part) {
  return text.find(part) != std::string::npos;
}

bool IsNoiseKey(const std::string& key) { return Contains(key, "_noise_"); }

std::optional<double> NoiseOf(const FactSet& facts, const std::string& key, Unit unit) {
  const std::string noise_key = NoiseKeyFor(key);
  if (noise_key == key) return std::nullopt;
  auto v = facts.NumberIn(noise_key, unit);
  if (v && std::isfinite(*v) && *v >= 0) return v;
  return std::nullopt;
}

int Rank(const FactChange& c) {
  if (c.is_input && c.change != Change::kSame) return 0;
  switch (c.change) {
    case Change::kWorse:
      return 1;
    case Change::kBetter:
      return 2;
    case Change::kChanged:
      return 3;
    case Change::kWithinNoise:
      return 4;
    case Change::kNoBand:
      return 5;
    case Change::kAdded:
    case Change::kRemoved:
      return 6;
    case Change::kSame:
      return 7;
  }
  return 7;
}

FactRole RoleOf(FactOrigin origin) {
  switch (origin) {
    case FactOrigin::kDeclared:
    case FactOrigin::kKnowledge:
      return FactRole::kInput;
    case FactOrigin::kDerived:
      return FactRole::kDerived;
    case FactOrigin::kMeasured:
    case FactOrigin::kObserved:
      return FactRole::kResult;
  }
  return FactRole::kResult;
}

}  // namespace

std::string_view ChangeName(Change change) {
  switch (change) {
    case Change::kSame:
      return "same";
    case Change::kWithinNoise:
      return "within noise";
    case Change::kNoBand:
      return "no noise band";
    case Change::kBetter:
      return "better";
    case Change::kWorse:
      return "worse";
    case Change::kChanged:
      return "changed";
    case Change::kAdded:
      return "added";
    case Change::kRemoved:
      return "removed";
  }
  return "?";
}

Better BetterDirection(const std::string& key, Unit unit) {
  // Costs and failures: less is better, whatever their unit ("starved_fraction" before
  // "fraction" below).
  for (const char* cost : {"error", "throttl", "retr", "fail", "timeout", "overhead", "cpu_s",
                           "lost", "idle", "starved", "stall", "breakeven"}) {
    if (Contains(key, cost)) return Better::kLower;
  }
  const Dimension dimension = InfoOf(unit).dimension;
  if (dimension == Dimension::kDuration || dimension == Dimension::kCpuCost) return Better::kLower;
  if (dimension == Dimension::kBitRate || dimension == Dimension::kFrequency)
    return Better::kHigher;
  for (const char* gain : {"util", "busy", "fraction", "efficiency", "per_s"}) {
    if (Contains(key, gain)) return Better::kHigher;
  }
  return Better::kNeither;
}

std::string NoiseKeyFor(const std::string& key) {
  const size_t dot = key.rfind('.');
  const size_t underscore = key.rfind('_');
  if (underscore == std::string::npos || (dot != std::string::npos && underscore < dot)) return key;
  return key.substr(0, underscore) + "_noise" + key.substr(underscore);
}

bool IsPerItemKey(const std::string& key) {
  const FactSpec* spec = FactRegistry::Builtin().Find(key);
  if (spec == nullptr) return false;
  const std::string_view family = spec->key;
  for (std::string_view item : {".<gpu>", ".<node>", ".<rank>"})
    if (family.size() > item.size() && family.substr(family.size() - item.size()) == item)
      return true;
  return false;
}

Comparison CompareResults(const ComparedResult& a, const ComparedResult& b,
                          const CompareLimits& limits) {
  const double tolerance = limits.tolerance;
  Comparison out;
  out.floor = limits.floor;
  out.a_name = a.name;
  out.b_name = b.name;
  out.a_verdict = a.verdict;
  out.b_verdict = b.verdict;
  out.tolerance = tolerance;
  static const FactSet kEmpty;
  const FactSet& fa = a.facts != nullptr ? *a.facts : kEmpty;
  const FactSet& fb = b.facts != nullptr ? *b.facts : kEmpty;

  std::set<std::string> keys;
  for (const auto& [key, fact] : fa) keys.insert(key);
  for (const auto& [key, fact] : fb) keys.insert(key);

  for (const std::string& key : keys) {
    if (IsNoiseKey(key)) continue;  // bands of other facts, not results of their own
    const Fact* x = fa.Find(key);
    const Fact* y = fb.Find(key);
    FactChange c;
    c.key = key;
    if (const FactSpec* spec = FactRegistry::Builtin().Find(key)) c.description = spec->description;
    const Fact* any = x != nullptr ? x : y;
    c.unit = any->unit;
    c.role = RoleOf(any->provenance.origin);
    c.is_input = c.role != FactRole::kResult;
    c.per_item = IsPerItemKey(key);
    c.better = BetterDirection(key, c.unit);
    if (x != nullptr) c.a_display = FormatFactValue(*x);
    if (y != nullptr) c.b_display = FormatFactValue(*y);
    if (x == nullptr || y == nullptr) {
      c.change = x == nullptr ? Change::kAdded : Change::kRemoved;
      if (x != nullptr && x->is_number()) c.a = x->number();
      if (y != nullptr && y->is_number()) c.b = fb.NumberIn(key, c.unit);
      out.changes.push_back(std::move(c));
      continue;
    }
    if (!x->is_number() || !y->is_number()) {
      c.change = c.a_display == c.b_display ? Change::kSame : Change::kChanged;
      if (c.change == Change::kSame) ++out.same;
      out.changes.push_back(std::move(c));
      continue;
    }
    // Both numbers: B in A's unit (a result may have been written in another unit).
    c.a = x->number();
    c.b = fb.NumberIn(key, c.unit);
    if (!c.b) {
      c.change = Change::kChanged;
      out.changes.push_back(std::move(c));
      continue;
    }
    const double delta = *c.b - *c.a;
    if (*c.a != 0) c.relative = delta / std::fabs(*c.a);
    auto na = NoiseOf(fa, key, c.unit);
    auto nb = NoiseOf(fb, key, c.unit);
    if (na || nb)
      c.noise = std::sqrt(na.value_or(0) * na.value_or(0) + nb.value_or(0) * nb.value_or(0));
    const bool negligible =
        delta == 0 || (c.relative && std::fabs(*c.relative) <= tolerance && !c.noise);
    if (negligible) {
      c.change = Change::kSame;
      ++out.same;
    } else if (c.noise && std::fabs(delta) <= *c.noise) {
      c.change = Change::kWithinNoise;
    } else if (c.is_input || c.better == Better::kNeither) {
      c.change = Change::kChanged;
    } else if (!c.noise &&
               (!limits.floor || !c.relative || std::fabs(*c.relative) <= *limits.floor)) {
      // Nothing says how much this result moves between two runs of the same setup: a change
      // under the floor (or any change, with no floor) is not called better or worse.
      c.change = Change::kNoBand;
    } else {
      c.change = (delta > 0) == (c.better == Better::kHigher) ? Change::kBetter : Change::kWorse;
    }
    out.changes.push_back(std::move(c));
  }
  for (const FactChange& c : out.changes) {
    if (c.is_input) continue;
    if (c.per_item) {
      out.per_item += c.change != Change::kSame;
      continue;
    }
    out.better += c.change == Change::kBetter;
    out.worse += c.change == Change::kWorse;
    out.within_noise += c.change == Change::kWithinNoise;
    out.no_band += c.change == Change::kNoBand;
    out.one_side += c.change == Change::kAdded || c.change == Change::kRemoved;
  }
  std::stable_sort(out.changes.begin(), out.changes.end(),
                   [](const FactChange& l, const FactChange& r) {
                     int rl = Rank(l), rr = Rank(r);
                     if (rl != rr) return rl < rr;
                     double ml = l.relative ? std::fabs(*l.relative) : 0;
                     double mr = r.relative ? std::fabs(*r.relative) : 0;
                     return ml > mr;
                   });
  return out;
}

}  // namespace feedcheck
