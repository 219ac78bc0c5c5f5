// A keyed set of facts. Later facts replace earlier ones with the same key; a merge reports
// which keys it replaced so callers can say so.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/fact.h"

namespace feedcheck {

class FactSet {
 public:
  /// Adds or replaces the fact with this key. A number that is not finite (NaN, an infinity: a
  /// sum over input that overflowed, an empty average) is not a fact: it is left out, and its
  /// key kept in NotFinite() for the caller to say so. The one place facts are checked.
  void Set(Fact fact);
  /// Keys of the numbers Set() refused (at most 100), in key order.
  const std::set<std::string>& NotFinite() const { return not_finite_; }
  bool Has(const std::string& key) const { return facts_.count(key) != 0; }
  const Fact* Find(const std::string& key) const;
  /// The number for `key`, converted to `unit` when given; nullopt when absent or not a number.
  std::optional<double> Number(const std::string& key) const;
  /// The number for `key`, or `fallback` when absent or not a number.
  double NumberOr(const std::string& key, double fallback) const {
    return Number(key).value_or(fallback);
  }
  std::optional<double> NumberIn(const std::string& key, Unit unit) const;
  std::optional<std::string> Text(const std::string& key) const;
  std::optional<bool> Bool(const std::string& key) const;
  void Erase(const std::string& key) { facts_.erase(key); }

  /// Copies every fact of `other` in; returns the keys that already existed here.
  /// With `keep_existing`, facts already here win (used to layer defaults under measurements).
  std::vector<std::string> Merge(const FactSet& other, bool keep_existing = false);

  /// Facts whose key starts with `prefix` (e.g. "runtime.http_errors.").
  std::vector<const Fact*> WithPrefix(const std::string& prefix) const;

  size_t size() const { return facts_.size(); }
  bool empty() const { return facts_.empty(); }
  auto begin() const { return facts_.begin(); }
  auto end() const { return facts_.end(); }

 private:
  std::map<std::string, Fact> facts_;
  std::set<std::string> not_finite_;
};

}  // namespace feedcheck
