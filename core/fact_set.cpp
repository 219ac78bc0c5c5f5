#include "core/fact_set.h"

#include <cmath>

namespace feedcheck {

void FactSet::Set(Fact fact) {
  if (fact.is_number() && !std::isfinite(fact.number())) {
    if (not_finite_.size() < 100) not_finite_.insert(fact.key);
    facts_.erase(fact.key);
    return;
  }
  std::string key = fact.key;
  facts_.insert_or_assign(std::move(key), std::move(fact));
}

const Fact* FactSet::Find(const std::string& key) const {
  auto it = facts_.find(key);
  return it == facts_.end() ? nullptr : &it->second;
}

std::optional<double> FactSet::Number(const std::string& key) const {
  const Fact* f = Find(key);
  if (!f || !f->is_number()) return std::nullopt;
  return f->number();
}

std::optional<double> FactSet::NumberIn(const std::string& key, Unit unit) const {
  const Fact* f = Find(key);
  if (!f || !f->is_number()) return std::nullopt;
  return Convert(f->number(), f->unit, unit);
}

std::optional<std::string> FactSet::Text(const std::string& key) const {
  const Fact* f = Find(key);
  if (!f || !f->is_text()) return std::nullopt;
  return f->text();
}

std::optional<bool> FactSet::Bool(const std::string& key) const {
  const Fact* f = Find(key);
  if (!f || !f->is_bool()) return std::nullopt;
  return std::get<bool>(f->value);
}

std::vector<std::string> FactSet::Merge(const FactSet& other, bool keep_existing) {
  std::vector<std::string> replaced;
  for (const std::string& key : other.not_finite_)
    if (not_finite_.size() < 100) not_finite_.insert(key);
  for (const auto& [key, fact] : other.facts_) {
    auto it = facts_.find(key);
    if (it != facts_.end()) {
      replaced.push_back(key);
      if (keep_existing) continue;
      it->second = fact;
    } else {
      facts_.emplace(key, fact);
    }
  }
  return replaced;
}

std::vector<const Fact*> FactSet::WithPrefix(const std::string& prefix) const {
  std::vector<const Fact*> out;
  for (auto it = facts_.lower_bound(prefix); it != facts_.end(); ++it) {
    if (it->first.compare(0, prefix.size(), prefix) != 0) break;
    out.push_back(&it->second);
  }
  return out;
}

}  // namespace feedcheck
