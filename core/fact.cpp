#include "core/fact.h"

#include <array>

namespace feedcheck {

namespace {
constexpr std::array<std::pair<FactOrigin, std::string_view>, 5> kOrigins{{
    {FactOrigin::kKnowledge, "knowledge"},
    {FactOrigin::kDeclared, "declared"},
    {FactOrigin::kDerived, "derived"},
    {FactOrigin::kObserved, "observed"},
    {FactOrigin::kMeasured, "measured"},
}};
}  // namespace

std::string_view OriginName(FactOrigin origin) {
  for (const auto& [o, name] : kOrigins)
    if (o == origin) return name;
  return "declared";
}

std::optional<FactOrigin> OriginFromName(std::string_view name) {
  for (const auto& [o, n] : kOrigins)
    if (n == name) return o;
  return std::nullopt;
}

Fact NumberFact(std::string key, double value, Unit unit, Provenance provenance) {
  return Fact{std::move(key), value, unit, std::move(provenance)};
}

Fact TextFact(std::string key, std::string value, Provenance provenance) {
  return Fact{std::move(key), std::move(value), Unit::kText, std::move(provenance)};
}

Fact BoolFact(std::string key, bool value, Provenance provenance) {
  return Fact{std::move(key), value, Unit::kBool, std::move(provenance)};
}

std::string FormatFactValue(const Fact& fact) {
  if (fact.is_text()) return fact.text();
  if (fact.is_bool()) return std::get<bool>(fact.value) ? "true" : "false";
  // Disk speeds read the way fio and dd print them (MB/s, GB/s); stored in Gbit/s like every
  // rate so rules compare them with the network's.
  if (fact.unit == Unit::kGbps && fact.key.rfind("probe.disk.", 0) == 0)
    return FormatValue(fact.number() * 1e9 / 8, Unit::kBytesPerSecond);
  return FormatValue(fact.number(), fact.unit);
}

}  // namespace feedcheck
