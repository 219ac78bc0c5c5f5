#include "rules/rule_reader.h"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <set>

#include "core/diagnostic_codes.h"
#include "rules/rule_messages.h"

namespace feedcheck::rules {
namespace {

Diagnostic At(const SourceFile& file, const YAML::Mark& mark, const char* code, std::string message,
              std::string context = "", DiagnosticSeverity severity = DiagnosticSeverity::kError) {
  Diagnostic d;
  d.code = code;
  d.severity = severity;
  d.message = std::move(message);
  d.context = std::move(context);
  d.location = SourceLocation{file.name, mark.line + 1, mark.column + 1};
  if (mark.line >= 0) d.snippet = file.LineText(mark.line + 1);
  return d;
}

SourceText Text(const YAML::Node& node, const std::shared_ptr<const SourceFile>& file) {
  std::string value = node.as<std::string>();
  // Folded and literal block scalars end with a newline that is not part of the text.
  while (!value.empty() && (value.back() == '\n' || value.back() == ' ')) value.pop_back();
  size_t pos = node.Mark().pos >= 0 ? static_cast<size_t>(node.Mark().pos) : 0;
  return SourceText::FromScalar(std::move(value), file, pos);
}

class Reader {
 public:
  Reader(const std::shared_ptr<const SourceFile>& file, DiagnosticList* diagnostics)
      : file_(file), diagnostics_(diagnostics) {}

  bool ReadRule(const YAML::Node& node, RuleInfo* rule) {
    if (!node.IsMap()) {
      diagnostics_->Add(At(*file_, node.Mark(), codes::kRuleNotAMap, kMsgRuleNotAMap));
      return false;
    }
    rule->location = SourceLocation{file_->name, node.Mark().line + 1, node.Mark().column + 1};
    std::string context;
    if (node["id"] && node["id"].IsScalar()) {
      rule->id = node["id"].as<std::string>();
      context = fmt::format("rule '{}'", rule->id);
    }
    bool ok = true;
    static const std::set<std::string> kRequired = {"id",   "title", "severity",
                                                    "when", "say",   "source"};
    for (const auto& field : kRequired) {
      if (!node[field]) {
        diagnostics_->Add(At(*file_, node.Mark(), codes::kRuleMissingField,
                             fmt::format(kMsgMissingField, field), context));
        ok = false;
      }
    }
    for (const auto& kv : node) {
      std::string key = kv.first.as<std::string>();
      const YAML::Node& value = kv.second;
      std::string where = context.empty() ? key : context + " > " + key;
      if (key == "id" || key == "title" || key == "severity" || key == "when" || key == "say" ||
          key == "source" || key == "mode" || key == "class" || key == "basis" || key == "excess" ||
          key == "demand" || key == "limit" || key == "critical_above") {
        if (!value.IsScalar()) {
          ok = WrongType(value, key, "a single value", where);
          continue;
        }
        if (key == "title") rule->title = value.as<std::string>();
        if (key == "source") rule->source = value.as<std::string>();
        if (key == "when") rule->when = Text(value, file_);
        if (key == "say") rule->say = Text(value, file_);
        if (key == "severity") {
          rule->severity = value.as<std::string>();
          rule->severity_location = Location(value);
        }
        if (key == "mode") {
          rule->mode = value.as<std::string>();
          rule->mode_location = Location(value);
        }
        if (key == "class") {
          rule->bottleneck = value.as<std::string>();
          rule->bottleneck_location = Location(value);
        }
        if (key == "basis") {
          rule->basis = value.as<std::string>();
          rule->basis_location = Location(value);
        }
        if (key == "excess") rule->excess = Text(value, file_);
        if (key == "demand") rule->demand = Text(value, file_);
        if (key == "limit") rule->limit = Text(value, file_);
        if (key == "critical_above") {
          rule->critical_above = value.as<std::string>();
          rule->critical_above_location = Location(value);
        }
      } else if (key == "evidence") {
        if (!value.IsSequence()) {
          ok = WrongType(value, key, "a list of fact keys", where);
          continue;
        }
        for (const auto& item : value) {
          if (!item.IsScalar()) {
            ok = WrongType(item, key, "a list of fact keys", where);
            continue;
          }
          rule->evidence.push_back(Text(item, file_));
        }
      } else if (key == "env" || key == "config") {
        if (value.IsNull()) continue;
        if (!value.IsMap()) {
          ok = WrongType(value, key, "a mapping of names to values", where);
          continue;
        }
        for (const auto& entry : value) {
          std::string name = entry.first.as<std::string>();
          if (!entry.second.IsScalar()) {
            ok = WrongType(entry.second, key + "." + name, "a single value", where);
            continue;
          }
          if (key == "env")
            rule->env.push_back(EnvInfo{name, Text(entry.second, file_)});
          else
            rule->config.push_back(ConfigInfo{name, Text(entry.second, file_)});
          if (key == "env")
            rule->env.back().value.start = Location(entry.first);
          else
            rule->config.back().text.start = Location(entry.first);
        }
      } else {
        diagnostics_->Add(At(*file_, kv.first.Mark(), codes::kRuleUnknownField,
                             fmt::format(kMsgUnknownField, key), context,
                             DiagnosticSeverity::kWarning));
      }
    }
    return ok;
  }

 private:
  SourceLocation Location(const YAML::Node& node) const {
    return SourceLocation{file_->name, node.Mark().line + 1, node.Mark().column + 1};
  }
  bool WrongType(const YAML::Node& node, const std::string& field, const std::string& want,
                 const std::string& context) {
    diagnostics_->Add(At(*file_, node.Mark(), codes::kWrongFieldType,
                         fmt::format(kMsgWrongFieldType, field, want), context));
    return false;
  }

  std::shared_ptr<const SourceFile> file_;
  DiagnosticList* diagnostics_;
};

}  // namespace

bool ReadRules(const std::shared_ptr<const SourceFile>& file, std::vector<RuleInfo>* out,
               DiagnosticList* diagnostics) {
  YAML::Node root;
  try {
    root = YAML::Load(file->content);
  } catch (const YAML::Exception& e) {
    diagnostics->Add(At(*file, e.mark, codes::kYamlSyntax, YamlErrorMessage(e)));
    return false;
  }
  if (root.IsNull()) return true;  // an empty file holds no rules
  if (!root.IsSequence()) {
    diagnostics->Add(At(*file, root.Mark(), codes::kRulesNotAList, kMsgNotAList));
    return false;
  }
  Reader reader(file, diagnostics);
  for (const auto& node : root) {
    RuleInfo rule;
    try {
      if (reader.ReadRule(node, &rule)) out->push_back(std::move(rule));
    } catch (const YAML::Exception& e) {
      diagnostics->Add(At(*file, e.mark, codes::kWrongFieldType, YamlErrorMessage(e)));
    }
  }
  return true;
}

}  // namespace feedcheck::rules

namespace feedcheck::rules {

std::string YamlErrorMessage(const std::exception& e) {
  if (const auto* deep = dynamic_cast<const YAML::DeepRecursion*>(&e))
    return fmt::format(kMsgYamlTooDeep, deep->depth());
  if (const auto* yaml = dynamic_cast<const YAML::Exception*>(&e)) return yaml->msg;
  return e.what();
}

}  // namespace feedcheck::rules
