#include "rules/rule_set.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "core/diagnostic_codes.h"
#include "core/units.h"
#include "rules/embedded_rules.h"
#include "rules/evaluator.h"
#include "rules/rule_messages.h"
#include "rules/rule_reader.h"
#include "rules/yaml_input.h"

namespace feedcheck::rules {
namespace fs = std::filesystem;

namespace {
std::string Where(const SourceLocation& l) { return fmt::format("{}:{}", l.file, l.line); }
}  // namespace

bool RuleSet::LoadFile(const std::string& path, DiagnosticList* diagnostics,
                       const std::string& display_name) {
  std::string content;
  return ReadInputFile(path, "rules file", codes::kRulesUnreadable, &content, diagnostics) &&
         LoadText(display_name.empty() ? path : display_name, std::move(content), diagnostics);
}

bool RuleSet::LoadText(const std::string& name, std::string content, DiagnosticList* diagnostics) {
  size_t errors_before = diagnostics->errors();
  auto file = SourceFile::Make(name, std::move(content));
  std::vector<RuleInfo> infos;
  ReadRules(file, &infos, diagnostics);
  std::vector<std::pair<std::string, SourceLocation>> seen;
  for (const auto& info : infos) {
    auto dup =
        std::find_if(seen.begin(), seen.end(), [&](const auto& s) { return s.first == info.id; });
    if (dup != seen.end()) {
      Diagnostic d{codes::kDuplicateRuleId,
                   DiagnosticSeverity::kError,
                   fmt::format(kMsgDuplicateId, info.id, Where(dup->second)),
                   info.location,
                   fmt::format("rule '{}'", info.id),
                   file->LineText(info.location.line)};
      diagnostics->Add(std::move(d));
      continue;
    }
    seen.emplace_back(info.id, info.location);
    CompiledRule rule;
    if (CompileRule(info, *registry_, &rule, diagnostics)) Add(std::move(rule), diagnostics);
  }
  return diagnostics->errors() == errors_before;
}

void RuleSet::Add(CompiledRule rule, DiagnosticList* diagnostics) {
  for (auto& existing : rules_) {
    if (existing.id != rule.id) continue;
    // A later file replaces a rule of an earlier one (user rules over built-ins), and says so.
    diagnostics->Add(Diagnostic{codes::kRuleOverride, DiagnosticSeverity::kWarning,
                                fmt::format(kMsgOverride, rule.id, Where(existing.location)),
                                rule.location, fmt::format("rule '{}'", rule.id), ""});
    existing = std::move(rule);
    return;
  }
  rules_.push_back(std::move(rule));
}

bool RuleSet::LoadDirectory(const std::string& dir, DiagnosticList* diagnostics,
                            const std::string& display_dir) {
  std::error_code ec;
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    auto ext = entry.path().extension();
    if (entry.is_regular_file(ec) && (ext == ".yaml" || ext == ".yml"))
      files.push_back(entry.path().string());
  }
  if (ec) {
    diagnostics->Add(Diagnostic{codes::kRulesUnreadable,
                                DiagnosticSeverity::kError,
                                "cannot read the rules directory: " + ec.message(),
                                {dir, 0, 0},
                                "",
                                ""});
    return false;
  }
  std::sort(files.begin(), files.end());
  bool ok = true;
  for (const auto& f : files) {
    std::string shown =
        display_dir.empty() ? "" : display_dir + "/" + fs::path(f).filename().string();
    ok = LoadFile(f, diagnostics, shown) && ok;
  }
  return ok;
}

const CompiledRule* RuleSet::Find(std::string_view id) const {
  for (const auto& r : rules_)
    if (r.id == id) return &r;
  return nullptr;
}

EvaluationResult RuleSet::Evaluate(const FactSet& facts) const {
  EvaluationResult result;
  for (const auto& rule : rules_) {
    std::vector<std::string> missing;
    Value v = rules::Evaluate(*rule.when, facts, &missing);
    if (!v.known()) {
      result.skipped.push_back(SkippedRule{rule.id, rule.title, missing});
      continue;
    }
    if (!v.boolean) continue;
    // Designated, not assigned member by member: g++ 12 -O2 took the latter for a read of an
    // uninitialised severity (-Wmaybe-uninitialized, a false positive that fails -Werror).
    Finding f{.rule_id = rule.id, .severity = rule.severity, .title = rule.title};
    std::vector<std::string> say_missing;
    f.message = RenderTemplate(rule.say, facts, &say_missing);
    for (const auto& key : rule.evidence)
      if (const Fact* fact = facts.Find(key)) f.evidence.push_back(*fact);
    for (const auto& env : rule.env) {
      std::vector<std::string> env_missing;
      std::string value = RenderTemplate(env.value, facts, &env_missing, Style::kRaw);
      if (!env_missing.empty()) {
        // Never paste a guessed value: say which setting could not be computed and why.
        f.message +=
            fmt::format(" ({} not computed: missing {})", env.name, fmt::join(env_missing, ", "));
        continue;
      }
      f.env.push_back(EnvSetting{env.name, value});
    }
    for (const auto& config : rule.config) {
      std::vector<std::string> config_missing;
      f.config.push_back(ConfigFragment{
          config.kind, RenderTemplate(config.text, facts, &config_missing, Style::kRaw)});
    }
    if (!rule.mode.empty()) f.config.push_back(ConfigFragment{kInputModeFragment, rule.mode});
    if (rule.excess) {
      std::vector<std::string> excess_missing;
      Value excess = rules::Evaluate(*rule.excess, facts, &excess_missing);
      if (excess.known()) f.excess = excess.number;
    }
    if (rule.demand && rule.limit) {
      // Both in the limit's unit: the chart's one axis.
      std::vector<std::string> gauge_missing;
      Value demand = rules::Evaluate(*rule.demand, facts, &gauge_missing);
      Value limit = rules::Evaluate(*rule.limit, facts, &gauge_missing);
      std::optional<double> in_limit_unit =
          demand.known() ? Convert(demand.number, rule.demand->unit, rule.limit->unit)
                         : std::nullopt;
      if (in_limit_unit && limit.known())
        f.gauge = FindingGauge{*in_limit_unit, limit.number, rule.limit->unit};
    }
    if (rule.critical_above > 0 && f.excess && *f.excess > rule.critical_above &&
        f.severity < Severity::kCritical) {
      f.severity = Severity::kCritical;
      f.escalated = true;
    }
    f.source = rule.source;
    f.bottleneck = rule.bottleneck;
    f.basis = rule.basis;
    f.rule_file = rule.location.file;
    f.rule_line = rule.location.line;
    result.findings.push_back(std::move(f));
  }
  SortFindings(&result.findings);
  return result;
}

bool LoadRuleDirectories(const std::string& builtin_dir, const std::vector<std::string>& user_dirs,
                         RuleSet* rules, DiagnosticList* diagnostics) {
  // The embedded rules, each file replaced by builtin_dir's file of the same name.
  bool ok = true;
  for (const auto& file :
       OverlayFolder(EmbeddedBuiltinRules(), builtin_dir, "rules/builtin/", true))
    ok = (file.path.empty() ? rules->LoadText(file.name, file.text, diagnostics)
                            : rules->LoadFile(file.path, diagnostics, file.name)) &&
         ok;
  for (const auto& dir : user_dirs) ok = rules->LoadDirectory(dir, diagnostics) && ok;
  return ok;
}

}  // namespace feedcheck::rules
