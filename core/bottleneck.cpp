#include "core/bottleneck.h"

#include <array>
#include <cctype>
#include <string>

namespace feedcheck {

namespace {

struct Names {
  Bottleneck value;
  std::string_view id;
  std::string_view name;
};

constexpr std::array<Names, 9> kNames{{
    {Bottleneck::kAccessFailure, "access_failure", "storage access failed"},
    {Bottleneck::kAccountEgress, "account_egress", "account egress"},
    {Bottleneck::kRequestRate, "request_rate", "request rate"},
    {Bottleneck::kAccountIngress, "account_ingress", "account ingress"},
    {Bottleneck::kCacheDisk, "cache_disk", "cache disk"},
    {Bottleneck::kClientThreads, "client_threads", "client threads/CPU"},
    {Bottleneck::kSmallFiles, "small_files", "small files"},
    {Bottleneck::kAccessMode, "access_mode", "access mode"},
    {Bottleneck::kNone, "none", "none"},
}};

bool SameName(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    auto x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[i]);
    if (std::tolower(x) != std::tolower(y)) return false;
  }
  return true;
}

}  // namespace

std::string_view BottleneckId(Bottleneck b) {
  for (const auto& n : kNames)
    if (n.value == b) return n.id;
  return "none";
}

std::string_view BottleneckName(Bottleneck b) {
  for (const auto& n : kNames)
    if (n.value == b) return n.name;
  return "none";
}

std::optional<Bottleneck> BottleneckFromName(std::string_view name) {
  for (const auto& n : kNames)
    if (SameName(name, n.id) || SameName(name, n.name)) return n.value;
  return std::nullopt;
}

int BottleneckRank(Bottleneck b) { return static_cast<int>(b); }

bool IsAccountLimit(Bottleneck b) {
  return b == Bottleneck::kAccountEgress || b == Bottleneck::kRequestRate;
}

std::string_view FindingBasisName(FindingBasis b) {
  return b == FindingBasis::kCapacity ? "capacity" : "observed";
}

std::optional<FindingBasis> FindingBasisFromName(std::string_view name) {
  if (SameName(name, "observed")) return FindingBasis::kObserved;
  if (SameName(name, "capacity")) return FindingBasis::kCapacity;
  return std::nullopt;
}

}  // namespace feedcheck
