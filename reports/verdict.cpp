#include "reports/verdict.h"

#include <fmt/format.h>

#include <array>
#include <string_view>
#include <utility>

namespace feedcheck {

namespace {

// Built-in rule ids (rules/builtin/*.yaml) by the bottleneck they point at. Matched exactly
// first, then by prefix, so a user's "small-files-..." rule lands in the right class.
// cluster-knee-below-prediction names no class on purpose: its finding is that the ceiling is
// none of these (a shared network path between the nodes and the account).
constexpr std::array<std::pair<std::string_view, std::string_view>, 27> kRuleClasses{{
    {"egress-at-limit-observed", "account egress"},
    {"throttled-egress", "account egress"},
    {"egress-nodes-beyond-account", "account egress"},
    {"cluster-nodes-beyond-knee", "account egress"},
    {"requests-at-limit-observed", "request throttling"},
    {"throttled-requests", "request throttling"},
    {"throttled-server-busy", "request throttling"},
    {"requests-beyond-account", "request throttling"},
    {"cluster-probe-throttled", "request throttling"},
    {"client-bound-latency", "client threads/CPU"},
    {"client-latency-not-storage", "client threads/CPU"},
    {"downloader-threads-low", "client threads/CPU"},
    {"mount-read-threads-low", "client threads/CPU"},
    {"small-files-", "small files"},
    {"mount-small-files-", "small files"},
    {"listing-recursive-walk", "small files"},
    {"tier-premium-for-small-files", "small files"},
    {"download-", "access mode"},
    {"mount-", "access mode"},
    {"block-cache-on-random-reads", "access mode"},
    {"whole-file-cache-too-small", "cache disk"},
    {"disk-", "cache disk"},
    {"cache-", "cache disk"},
    {"prefetch-exceeds-ram", "cache disk"},
    {"gpu-demand-", "account egress"},
    {"supply-nodes-beyond-account", "account egress"},
    {"http-retry-count-high", "request throttling"},
}};

}  // namespace

std::string BottleneckOfRule(const std::string& rule_id) {
  for (const auto& [id, cls] : kRuleClasses)
    if (rule_id == id) return std::string(cls);
  for (const auto& [id, cls] : kRuleClasses)
    if (id.back() == '-' && rule_id.rfind(id, 0) == 0) return std::string(cls);
  return "";
}

Verdict PreflightVerdict(const std::vector<Finding>& findings) {
  for (const auto& f : findings) {
    if (f.severity == Severity::kCritical)
      return {"will starve the GPUs", VerdictLevel::kBad,
              fmt::format("{} ({}).", f.title, f.rule_id)};
  }
  for (const auto& f : findings) {
    if (f.severity == Severity::kWarning)
      return {"at risk", VerdictLevel::kWarning, fmt::format("{} ({}).", f.title, f.rule_id)};
  }
  return {"ready", VerdictLevel::kGood, "No rule found a warning or a critical problem."};
}

// Among findings of equal severity, the class that caps the others wins: an account at its
// egress or request limit throttles every client, however well tuned, so client threads, small
// files or the access mode only matter once the account is not saturated.
int ClassRank(const std::string& cls) {
  static constexpr std::string_view kOrder[] = {"account egress", "request throttling",
                                                "cache disk",     "access mode",
                                                "small files",    "client threads/CPU"};
  for (size_t i = 0; i < std::size(kOrder); ++i)
    if (kOrder[i] == cls) return static_cast<int>(i);
  return static_cast<int>(std::size(kOrder));
}

Verdict PostmortemVerdict(const std::vector<Finding>& findings) {
  for (Severity s : {Severity::kCritical, Severity::kWarning}) {
    const Finding* best = nullptr;
    std::string best_cls;
    for (const auto& f : findings) {
      if (f.severity != s) continue;
      std::string cls = BottleneckOfRule(f.rule_id);
      if (cls.empty()) continue;
      if (!best || ClassRank(cls) < ClassRank(best_cls)) {
        best = &f;
        best_cls = cls;
      }
    }
    if (best)
      return {best_cls, s == Severity::kCritical ? VerdictLevel::kBad : VerdictLevel::kWarning,
              fmt::format("{} ({}).", best->title, best->rule_id)};
  }
  return {"none found", VerdictLevel::kGood,
          "No finding points at account egress, request throttling, client threads/CPU, small "
          "files, access mode or the cache disk."};
}

}  // namespace feedcheck
