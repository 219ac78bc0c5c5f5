#include "rules/advice.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/ascii_text.h"
#include "core/units.h"
#include "rules/rule_set.h"

namespace feedcheck::rules {

namespace {}  // namespace

bool SameEnvValue(const std::string& a, const std::string& b) {
  if (a == b) return true;
  std::string la = ToLower(a), lb = ToLower(b);
  if ((la == "true" || la == "false") && (lb == "true" || lb == "false")) return la == lb;
  auto qa = ParseQuantity(a), qb = ParseQuantity(b);
  if (qa && qb && qa->unit == Unit::kCount && qb->unit == Unit::kCount)
    return std::fabs(qa->value - qb->value) < 1e-9;
  return false;
}

std::string ModeForInput(const std::string& input_mode, const std::string& advised) {
  if (!StartsWith(input_mode, "eval_")) return advised;
  if (advised == "ro_mount") return "eval_mount";
  if (advised == "download") return "eval_download";
  return advised;
}

Advice MergeAdvice(const std::vector<Finding>& findings) {
  Advice advice;
  for (const auto& f : findings) {
    for (const auto& e : f.env) {
      auto it = std::find_if(advice.env.begin(), advice.env.end(),
                             [&](const EnvSetting& s) { return s.name == e.name; });
      if (it == advice.env.end()) {
        advice.env.push_back(e);
        advice.env_rules.push_back(f.rule_id);
        continue;
      }
      if (SameEnvValue(it->value, e.value)) continue;
      size_t i = static_cast<size_t>(it - advice.env.begin());
      advice.conflicts.push_back(
          EnvConflict{e.name, it->value, advice.env_rules[i], e.value, f.rule_id});
    }
    for (const auto& c : f.config) {
      if (c.kind == kInputModeFragment) {
        if (advice.mode.empty()) {
          advice.mode = c.text;
          advice.mode_rule = f.rule_id;
        }
        continue;
      }
      std::string text = c.text;
      if (!text.empty() && text.back() != '\n') text += '\n';
      advice.config.push_back(
          ConfigFragment{c.kind, fmt::format("# from rule {}\n{}", f.rule_id, text)});
    }
  }
  return advice;
}

std::vector<EnvSetting> TakeSettingsInPlace(const FactSet& facts, Advice* advice,
                                            std::vector<std::string>* rules) {
  std::vector<EnvSetting> in_place;
  Advice kept = *advice;
  kept.env.clear();
  kept.env_rules.clear();
  for (size_t i = 0; i < advice->env.size(); ++i) {
    const EnvSetting& e = advice->env[i];
    const Fact* have = facts.Find("runtime.setting." + e.name);
    std::string value;
    if (have && have->is_number())
      value = fmt::format("{:.15g}", have->number());
    else if (have)
      value = have->text();
    if (have && SameEnvValue(value, e.value)) {
      in_place.push_back(e);
      rules->push_back(advice->env_rules[i]);
      continue;
    }
    kept.env.push_back(e);
    kept.env_rules.push_back(advice->env_rules[i]);
  }
  *advice = std::move(kept);
  return in_place;
}

}  // namespace feedcheck::rules
