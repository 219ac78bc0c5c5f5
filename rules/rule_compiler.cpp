#include "rules/rule_compiler.h"

#include <fmt/format.h>

#include "core/diagnostic_codes.h"
#include "core/runtime_settings.h"
#include "core/units.h"
#include "rules/expression.h"
#include "rules/rule_messages.h"
#include "rules/type_checker.h"

namespace feedcheck::rules {
namespace {

Diagnostic At(const SourceLocation& where, const std::shared_ptr<const SourceFile>& file,
              const char* code, std::string message, std::string context) {
  Diagnostic d;
  d.code = code;
  d.message = std::move(message);
  d.location = where;
  d.context = std::move(context);
  if (file) d.snippet = file->LineText(where.line);
  return d;
}

bool IsEnvName(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!(std::isupper(static_cast<unsigned char>(c)) ||
          std::isdigit(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

// `demand:` and `limit:` come together, as numbers of one dimension (requests/s against
// requests/s), so a chart can draw one against the other.
bool CompileGauge(const RuleInfo& info, const FactRegistry& registry, const std::string& context,
                  CompiledRule* out, DiagnosticList* diagnostics) {
  const bool has_demand = !info.demand.value.empty(), has_limit = !info.limit.value.empty();
  if (!has_demand && !has_limit) return true;
  if (has_demand != has_limit) {
    const SourceText& given = has_demand ? info.demand : info.limit;
    const char* name = has_demand ? "demand" : "limit";
    diagnostics->Add(given.At(0, codes::kRuleMissingField,
                              fmt::format(kMsgGaugeHalf, name, has_demand ? "limit" : "demand"),
                              context + " > " + name));
    return false;
  }
  bool ok = true;
  auto compile = [&](const SourceText& text, const char* name, ExprPtr* expr) {
    *expr = CompileExpression(text, 0, text.value.size(), registry, context + " > " + name,
                              diagnostics);
    if (!*expr) {
      ok = false;
    } else if ((*expr)->type != ValueType::kNumber) {
      diagnostics->Add(text.At(0, codes::kTypeMismatch,
                               fmt::format(kMsgGaugeNotQuantity, name, DescribeType(**expr)),
                               context + " > " + name));
      ok = false;
    }
  };
  compile(info.demand, "demand", &out->demand);
  compile(info.limit, "limit", &out->limit);
  if (!ok) return false;
  auto group = [](Unit u) {
    Dimension d = InfoOf(u).dimension;
    return d == Dimension::kRatio ? Dimension::kCount : d;
  };
  if (group(out->demand->unit) != group(out->limit->unit)) {
    diagnostics->Add(info.limit.At(
        0, codes::kUnitMismatch,
        fmt::format(kMsgGaugeDimensions, DescribeType(*out->demand), DescribeType(*out->limit)),
        context + " > limit"));
    return false;
  }
  return true;
}

}  // namespace

bool IsInputMode(std::string_view mode) {
  return mode == "download" || mode == "ro_mount" || mode == "direct" || mode == "eval_mount" ||
         mode == "eval_download";
}

bool CompileRule(const RuleInfo& info, const FactRegistry& registry, CompiledRule* out,
                 DiagnosticList* diagnostics) {
  const std::string context = fmt::format("rule '{}'", info.id);
  const auto& file = info.when.file ? info.when.file : info.say.file;
  bool ok = true;
  out->id = info.id;
  out->title = info.title;
  out->source = info.source;
  out->location = info.location;
  out->mode = info.mode;
  out->condition_text = info.when.value;

  auto severity = SeverityFromName(info.severity);
  if (!severity) {
    diagnostics->Add(At(info.severity_location, file, codes::kBadSeverity,
                        fmt::format(kMsgBadSeverity, info.severity), context + " > severity"));
    ok = false;
  } else {
    out->severity = *severity;
  }
  if (!info.bottleneck.empty()) {
    if (auto b = BottleneckFromName(info.bottleneck)) {
      out->bottleneck = *b;
    } else {
      diagnostics->Add(At(info.bottleneck_location, file, codes::kBadClass,
                          fmt::format(kMsgBadClass, info.bottleneck), context + " > class"));
      ok = false;
    }
  }
  if (!info.basis.empty()) {
    if (auto b = FindingBasisFromName(info.basis)) {
      out->basis = *b;
    } else {
      diagnostics->Add(At(info.basis_location, file, codes::kBadBasis,
                          fmt::format(kMsgBadBasis, info.basis), context + " > basis"));
      ok = false;
    }
  }
  if (!info.mode.empty() && !IsInputMode(info.mode)) {
    diagnostics->Add(At(info.mode_location, file, codes::kBadMode,
                        fmt::format(kMsgBadMode, info.mode), context + " > mode"));
    ok = false;
  }

  out->when = CompileExpression(info.when, 0, info.when.value.size(), registry, context + " > when",
                                diagnostics);
  if (!out->when) {
    ok = false;
  } else if (out->when->type != ValueType::kBool) {
    diagnostics->Add(info.when.At(0, codes::kTypeMismatch,
                                  fmt::format(kMsgConditionNotBool, DescribeType(*out->when)),
                                  context + " > when"));
    ok = false;
  }

  if (!info.excess.value.empty()) {
    out->excess = CompileExpression(info.excess, 0, info.excess.value.size(), registry,
                                    context + " > excess", diagnostics);
    if (!out->excess) {
      ok = false;
    } else if (out->excess->type != ValueType::kNumber || out->excess->unit != Unit::kCount) {
      // A ratio of two quantities of one dimension: 288 Gbit/s / 200 Gbit/s, not 88 Gbit/s.
      diagnostics->Add(info.excess.At(0, codes::kTypeMismatch,
                                      fmt::format(kMsgExcessNotRatio, DescribeType(*out->excess)),
                                      context + " > excess"));
      ok = false;
    }
  }
  ok = CompileGauge(info, registry, context, out, diagnostics) && ok;
  if (!info.critical_above.empty()) {
    auto q = ParseQuantity(info.critical_above);
    if (info.excess.value.empty() || !q || q->unit != Unit::kCount || !(q->value > 1)) {
      diagnostics->Add(At(info.critical_above_location, file, codes::kWrongFieldType,
                          fmt::format(kMsgBadCriticalAbove, info.critical_above),
                          context + " > critical_above"));
      ok = false;
    } else {
      out->critical_above = q->value;
    }
  }

  for (const auto& key : info.evidence) {
    if (registry.Find(key.value)) {
      out->evidence.push_back(key.value);
      continue;
    }
    std::string message = fmt::format(kMsgUnknownFact, key.value);
    auto near = registry.Suggest(key.value);
    if (!near.empty()) message += fmt::format(kMsgDidYouMean, near.front());
    diagnostics->Add(key.At(0, codes::kUnknownFact, message, context + " > evidence"));
    ok = false;
  }
  if (out->evidence.empty() && out->when) out->evidence = FactKeys(*out->when);

  ok = CompileTemplate(info.say, registry, context + " > say", &out->say, diagnostics) && ok;

  for (const auto& env : info.env) {
    std::string where = fmt::format("{} > env {}", context, env.name);
    if (!IsEnvName(env.name)) {
      diagnostics->Add(At(env.value.start, file, codes::kBadEnvName,
                          fmt::format(kMsgBadEnvName, env.name), where));
      ok = false;
      continue;
    }
    // A name the data runtime does not document is ignored by it: say so, with the likely one.
    if (auto likely = LikelyRuntimeSetting(env.name)) {
      Diagnostic d = At(
          env.value.start, file, codes::kUndocumentedSetting,
          fmt::format("{} is not a setting the Azure ML data runtime documents{}", env.name,
                      likely->empty() ? std::string(" (the guide's \"Available download "
                                                    "settings\" and \"Available mount settings\")")
                                      : fmt::format(kMsgDidYouMean, *likely)),
          where);
      d.severity = DiagnosticSeverity::kWarning;
      diagnostics->Add(std::move(d));
    }
    CompiledEnv compiled;
    compiled.name = env.name;
    compiled.location = env.value.start;
    ok = CompileTemplate(env.value, registry, where, &compiled.value, diagnostics) && ok;
    out->env.push_back(std::move(compiled));
  }
  for (const auto& config : info.config) {
    std::string where = fmt::format("{} > config {}", context, config.kind);
    if (config.kind != "blobfuse2") {
      diagnostics->Add(At(config.text.start, file, codes::kBadConfigKind,
                          fmt::format(kMsgBadConfigKind, config.kind), where));
      ok = false;
      continue;
    }
    CompiledConfig compiled;
    compiled.kind = config.kind;
    ok = CompileTemplate(config.text, registry, where, &compiled.text, diagnostics) && ok;
    out->config.push_back(std::move(compiled));
  }
  return ok;
}

}  // namespace feedcheck::rules
