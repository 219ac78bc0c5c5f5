#include "rules/profile.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/declared_bounds.h"
#include "core/diagnostic_codes.h"
#include "core/edit_distance.h"
#include "core/fact_registry.h"
#include "core/knowledge_base.h"
#include "rules/rule_messages.h"
#include "rules/yaml_input.h"

namespace feedcheck::rules {

const std::vector<GpuPreset>& GpuPresets() {
  static const std::vector<GpuPreset> kPresets = {
      {"unet3d", 3.2, "MLPerf Storage UNet3D, ~3.2 GB/s per H100-class GPU"},
      {"cosmoflow", 0.8, "MLPerf Storage CosmoFlow, ~0.8 GB/s per H100-class GPU"},
      {"resnet50", 0.2, "MLPerf Storage ResNet-50, ~0.2 GB/s per H100-class GPU"},
  };
  return kPresets;
}

bool ParseFactValue(const std::string& key, const std::string& text, Fact* out,
                    std::string* error) {
  const FactSpec* spec = FactRegistry::Builtin().Find(key);
  if (!spec) {
    *error = fmt::format(kMsgUnknownFact, key);
    auto near = FactRegistry::Builtin().Suggest(key);
    if (!near.empty()) *error += fmt::format(kMsgDidYouMean, near.front());
    return false;
  }
  out->key = key;
  out->unit = spec->unit;
  if (spec->unit == Unit::kText) {
    out->value = text;
    return true;
  }
  if (spec->unit == Unit::kBool) {
    std::string lower = text;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lower == "true" || lower == "yes")
      out->value = true;
    else if (lower == "false" || lower == "no")
      out->value = false;
    else {
      *error = fmt::format("'{}' is not true or false", text);
      return false;
    }
    return true;
  }
  std::string why;
  auto q = ParseQuantity(text, &why);
  if (!q) {
    *error = why;
    return false;
  }
  double value = q->value;
  if (q->unit != Unit::kCount && q->unit != spec->unit) {
    auto converted = Convert(q->value, q->unit, spec->unit);
    if (!converted) {
      *error = fmt::format("'{}' is a {}, but {} is a {} ({})", text,
                           DimensionName(InfoOf(q->unit).dimension), key,
                           DimensionName(InfoOf(spec->unit).dimension), UnitName(spec->unit));
      return false;
    }
    value = *converted;
  }
  if (!std::isfinite(value)) {  // a conversion may overflow: "1e308 s" in ms
    *error = fmt::format("'{}' is too large for {} ({})", text, key, UnitName(spec->unit));
    return false;
  }
  // node.count has a check of its own (a whole number of nodes, as in a job file).
  if (auto problem =
          key == "node.count" ? std::nullopt : DeclaredValueProblem(key, value, spec->unit)) {
    *error = fmt::format("'{}': {} {}", text, key, *problem);
    return false;
  }
  out->value = value;
  return true;
}

namespace {

enum class Check { kAny, kAccess, kMode, kPreset, kNodeCount };

struct Field {
  const char* section;  // "" for top level
  const char* name;
  const char* key;  // fact key; null for fields handled by hand
  Check check;
};

constexpr Field kFields[] = {
    {"", "nodes", "node.count", Check::kNodeCount},
    {"", "sku", "node.sku", Check::kAny},
    {"", "region", "account.region", Check::kAny},
    {"", "same_region", "account.same_region", Check::kAny},
    {"", "compute_region", nullptr, Check::kAny},
    {"", "account", nullptr, Check::kAny},
    {"", "name", nullptr, Check::kAny},
    {"", "description", nullptr, Check::kAny},
    {"dataset", "bytes", "dataset.bytes", Check::kAny},
    {"dataset", "size", "dataset.bytes", Check::kAny},
    {"dataset", "files", "dataset.files", Check::kAny},
    {"dataset", "median_file", "dataset.median_file_bytes", Check::kAny},
    {"dataset", "mean_file", "dataset.mean_file_bytes", Check::kAny},
    {"dataset", "max_file", "dataset.max_file_bytes", Check::kAny},
    {"dataset", "dirs", "dataset.dirs", Check::kAny},
    {"dataset", "files_per_dir", "dataset.files_per_dir", Check::kAny},
    {"workload", "epochs", "workload.epochs", Check::kAny},
    {"workload", "access", "workload.access", Check::kAccess},
    {"workload", "readers", "workload.readers", Check::kAny},
    {"workload", "checkpoint_every", "workload.checkpoint_every_s", Check::kAny},
    {"workload", "mode", "workload.mode", Check::kMode},
    {"workload", "delayed_start_ok", "workload.delayed_start_ok", Check::kAny},
    {"workload", "reads_whole_dataset", "workload.reads_whole_dataset", Check::kAny},
    {"workload", "file_reads_concurrent", "workload.file_reads_concurrent", Check::kAny},
    {"gpu", "preset", "workload.gpu_preset", Check::kPreset},
    {"gpu", "per_gpu", "workload.gpu_demand_per_gpu_gbps", Check::kAny},
    {"gpu", "per_node", "workload.gpu_demand_gbps", Check::kAny},
    {"node", "vcpus", "node.vcpus", Check::kAny},
    {"node", "gpus", "node.gpus", Check::kAny},
    {"node", "ram", "node.ram_bytes", Check::kAny},
    {"node", "nic", "node.nic_gbps", Check::kAny},
    {"node", "local_disk", "node.local_disk_bytes", Check::kAny},
    {"account_limits", "egress", "account.egress_gbps", Check::kAny},
    {"account_limits", "ingress", "account.ingress_gbps", Check::kAny},
    {"account_limits", "requests", "account.requests_per_s", Check::kAny},
};

class ProfileReader {
 public:
  ProfileReader(std::string name, const std::string& content, Profile* out,
                DiagnosticList* diagnostics)
      : name_(std::move(name)), out_(out), diagnostics_(diagnostics) {
    std::istringstream in(content);
    for (std::string line; std::getline(in, line);) lines_.push_back(line);
  }

  bool Read(const YAML::Node& root) {
    if (!root.IsMap()) {
      Error(root.Mark(), codes::kProfileField,
            "a profile is a YAML mapping (nodes, sku, dataset, ...)");
      return false;
    }
    ReadSection(root, "");
    // Each value was plausible alone; together they must not contradict each other.
    for (const auto& c : DeclaredContradictions(out_->facts)) {
      const Fact* at = out_->facts.Find(c.key);
      YAML::Mark mark;
      mark.line = at && at->provenance.line > 0 ? at->provenance.line - 1 : 0;
      // At the field's name: the first character of its line.
      const std::string text =
          static_cast<size_t>(mark.line) < lines_.size() ? lines_[mark.line] : std::string();
      mark.column = static_cast<int>(std::min(text.find_first_not_of(' '), text.size()));
      Error(mark, codes::kProfileValue, c.message);
    }
    return true;
  }

 private:
  Provenance Where(const YAML::Mark& mark) const {
    Provenance p;
    p.origin = FactOrigin::kDeclared;
    p.source = "profile " + name_;
    p.file = name_;
    p.line = mark.line + 1;
    return p;
  }
  void Error(const YAML::Mark& mark, const char* code, std::string message,
             DiagnosticSeverity severity = DiagnosticSeverity::kError) {
    Diagnostic d;
    d.code = code;
    d.severity = severity;
    d.message = std::move(message);
    d.location = SourceLocation{name_, mark.line + 1, mark.column + 1};
    if (mark.line >= 0 && static_cast<size_t>(mark.line) < lines_.size())
      d.snippet = lines_[static_cast<size_t>(mark.line)];
    diagnostics_->Add(std::move(d));
  }

  void ReadSection(const YAML::Node& map, const std::string& section) {
    for (const auto& kv : map) {
      std::string name = kv.first.as<std::string>();
      const YAML::Node& value = kv.second;
      if (section.empty() && name == "facts") {
        ReadFacts(value);
        continue;
      }
      if (section.empty() && value.IsMap()) {
        bool known_section = std::any_of(std::begin(kFields), std::end(kFields),
                                         [&](const Field& f) { return name == f.section; });
        if (known_section) {
          ReadSection(value, name);
          continue;
        }
      }
      const Field* field = nullptr;
      for (const auto& f : kFields)
        if (section == f.section && name == f.name) field = &f;
      if (!field) {
        std::vector<std::string> names;
        for (const auto& f : kFields)
          if (section == f.section) names.push_back(f.name);
        if (section.empty())
          for (const char* s : {"dataset", "workload", "gpu", "node", "account_limits", "facts"})
            names.push_back(s);
        Error(kv.first.Mark(), codes::kProfileField,
              fmt::format("unknown profile field '{}{}' (known: {})",
                          section.empty() ? "" : section + ".", name, fmt::join(names, ", ")));
        continue;
      }
      if (!value.IsScalar()) {
        Error(value.Mark(), codes::kProfileValue, fmt::format("'{}' must be a single value", name));
        continue;
      }
      std::string text = value.as<std::string>();
      if (!Accept(*field, text, value.Mark())) continue;
      if (field->key == nullptr) {
        if (name == "account") {
          out_->account = text;
          out_->account_location =
              SourceLocation{name_, value.Mark().line + 1, value.Mark().column + 1};
        }
        if (name == "compute_region") {
          out_->compute_region = text;
          out_->compute_region_provenance = Where(value.Mark());
        }
        continue;
      }
      AddFact(field->key, text, value.Mark(), field->check,
              section.empty() ? name : section + "." + name);
      if (name == "sku") {
        out_->sku = text;
        out_->sku_location = SourceLocation{name_, value.Mark().line + 1, value.Mark().column + 1};
      }
      if (name == "region") {
        out_->region = text;
        out_->region_location =
            SourceLocation{name_, value.Mark().line + 1, value.Mark().column + 1};
      }
      if (field->check == Check::kPreset) AddPreset(text, value.Mark());
    }
  }

  bool Accept(const Field& field, const std::string& text, const YAML::Mark& mark) {
    std::vector<std::string> allowed;
    if (field.check == Check::kAccess)
      allowed = {"sequential", "random", "shuffled_files", "columnar"};
    if (field.check == Check::kMode)
      allowed = {"download", "ro_mount", "direct", "eval_mount", "eval_download"};
    if (field.check == Check::kPreset)
      for (const auto& p : GpuPresets()) allowed.push_back(p.name);
    if (allowed.empty() || std::find(allowed.begin(), allowed.end(), text) != allowed.end())
      return true;
    if (field.check == Check::kMode && (text == "rw_mount" || text == "upload")) {
      Error(mark, codes::kProfileValue,
            fmt::format("'{}' is an output mode; inputs are ro_mount, download, direct (and "
                        "eval_mount, eval_download for MLTable)",
                        text));
      return false;
    }
    std::string hint;
    if (text == "mount")
      hint = "; did you mean 'ro_mount'?";
    else if (auto near = Suggest(text, allowed, 1); !near.empty())
      hint = fmt::format(kMsgDidYouMean, near.front());
    else if (field.check == Check::kPreset)
      for (const auto& p : allowed)
        if (p.rfind(text, 0) == 0) hint = fmt::format(kMsgDidYouMean, p);
    Error(mark, codes::kProfileValue,
          fmt::format("'{}' is not one of {}{}", text, fmt::join(allowed, ", "), hint));
    return false;
  }

  void AddFact(const std::string& key, const std::string& text, const YAML::Mark& mark,
               Check check = Check::kAny, const std::string& field = "") {
    Fact fact;
    std::string error;
    if (!ParseFactValue(key, text, &fact, &error)) {
      // The field as the user wrote it, when its fact has another name (gpu.per_node is
      // workload.gpu_demand_gbps).
      Error(mark, codes::kProfileValue,
            field.empty() || field == key ? error : fmt::format("{}: {}", field, error));
      return;
    }
    // The same bounds as a job file's resources.instance_count: a whole number of nodes.
    if (check == Check::kNodeCount || key == "node.count") {
      const double* n = std::get_if<double>(&fact.value);
      if (!n || *n < 1 || *n >= 1e6 || *n != std::floor(*n)) {
        Error(
            mark, codes::kProfileValue,
            fmt::format("nodes '{}' is not a node count (a whole number from 1 to 999999)", text));
        return;
      }
    }
    fact.provenance = Where(mark);
    out_->facts.Set(std::move(fact));
  }

  void AddPreset(const std::string& name, const YAML::Mark& mark) {
    for (const auto& p : GpuPresets()) {
      if (name != p.name || out_->facts.Has("workload.gpu_demand_per_gpu_gbps")) continue;
      Provenance prov = Where(mark);
      prov.source = fmt::format("preset {} ({}), profile {}", p.name, p.source, name_);
      out_->facts.Set(
          NumberFact("workload.gpu_demand_per_gpu_gbps", p.gbytes_per_s * 8, Unit::kGbps, prov));
    }
  }

  void ReadFacts(const YAML::Node& map) {
    if (!map.IsMap()) {
      Error(map.Mark(), codes::kProfileValue, "'facts' must map fact keys to values");
      return;
    }
    for (const auto& kv : map) {
      if (!kv.second.IsScalar()) {
        Error(kv.second.Mark(), codes::kProfileValue, "a fact value must be a single value");
        continue;
      }
      AddFact(kv.first.as<std::string>(), kv.second.as<std::string>(), kv.second.Mark());
    }
  }

  std::string name_;
  Profile* out_;
  DiagnosticList* diagnostics_;
  std::vector<std::string> lines_;
};

}  // namespace

std::optional<Fact> SameRegionFact(const Profile& profile, std::string_view account_region) {
  if (profile.compute_region.empty() || account_region.empty()) return std::nullopt;
  return BoolFact("account.same_region",
                  NormalizeRegion(profile.compute_region) == NormalizeRegion(account_region),
                  profile.compute_region_provenance);
}

bool LoadProfileText(const std::string& name, const std::string& content, Profile* out,
                     DiagnosticList* diagnostics) {
  YAML::Node root;
  if (!ParseYaml(name, content, &root, diagnostics)) return false;
  ProfileReader reader(name, content, out, diagnostics);
  try {
    return reader.Read(root);
  } catch (const YAML::Exception& e) {
    diagnostics->Add(YamlExceptionDiagnostic(name, e, codes::kProfileValue));
    return false;
  }
}

bool LoadProfile(const std::string& path, Profile* out, DiagnosticList* diagnostics) {
  std::string content;
  return ReadInputFile(path, "profile", codes::kRulesUnreadable, &content, diagnostics) &&
         LoadProfileText(path, content, out, diagnostics);
}

}  // namespace feedcheck::rules
