#include "core/knowledge_base.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "core/ascii_text.h"
#include "core/diagnostic_codes.h"
#include "core/edit_distance.h"
#include "core/embedded_file.h"
#include "core/input_file.h"
#include "core/kb_prices.h"
#include "core/kb_row_reader.h"
#include "core/units.h"

namespace feedcheck {
namespace {

namespace fs = std::filesystem;
using kb::FileReader;
using kb::RowReader;
using kb::SplitLines;

// "Standard_ND96asr_v4", "nd96asr v4", "standard-nd96asr-v4" -> "nd96asr_v4".
std::string VmKey(std::string_view name) {
  std::string s = ToLower(name);
  for (char& c : s)
    if (c == ' ' || c == '-') c = '_';
  constexpr std::string_view kPrefix = "standard_";
  if (s.rfind(kPrefix, 0) == 0) s.erase(0, kPrefix.size());
  return s;
}

std::optional<VmSize> ReadVm(const YAML::Node& row, FileReader* file) {
  RowReader r(row, file,
              {"name", "vcpus", "gpus", "gpu_model", "ram", "local_disk", "nic", "source", "note",
               "retired", "retired_source", "price_usd_per_hour", "price_region", "price_as_of",
               "price_source"});
  auto name = r.Text("name");
  file->set_context(name ? fmt::format("vm size '{}'", *name) : "vm size");
  r.CheckKeys();
  VmSize vm;
  auto vcpus = r.Count("vcpus");
  auto gpus = r.Count("gpus");
  auto gpu_model = r.Text("gpu_model", false);
  auto ram = r.Bytes("ram");
  auto disk = r.Bytes("local_disk");
  auto nic = r.Gbps("nic");
  auto source = r.Text("source");
  auto note = r.Text("note", false);
  auto retired = r.Text("retired", false);
  auto retired_source = r.Text("retired_source", false);
  const bool priced = ReadVmPrice(row, &r, file, &vm);
  if (!name || !vcpus || !gpus || !ram || !disk || !nic || !source || !priced) return std::nullopt;
  if (retired &&
      (retired->size() != 10 || (*retired)[4] != '-' || (*retired)[7] != '-' || !retired_source)) {
    file->Error(codes::kKbBadValue, row["retired"].Mark(),
                "bad value for 'retired': a date YYYY-MM-DD, with 'retired_source' citing the "
                "retirement notice");
    return std::nullopt;
  }
  if (*nic <= 0) {
    file->Error(codes::kKbBadValue, row["nic"].Mark(), "bad value for 'nic': must be above 0");
    return std::nullopt;
  }
  vm.name = *name;
  vm.vcpus = *vcpus;
  vm.gpus = *gpus;
  vm.gpu_model = gpu_model.value_or("");
  vm.ram_bytes = *ram;
  vm.local_disk_bytes = *disk;
  vm.nic_gbps = *nic;
  vm.source = *source;
  vm.note = note.value_or("");
  vm.retired_on = retired.value_or("");
  vm.retired_source = retired_source.value_or("");
  vm.file = file->path();
  vm.line = row.Mark().line + 1;
  return vm;
}

std::optional<StorageTarget> ReadTarget(const YAML::Node& row, FileReader* file) {
  RowReader r(row, file, {"name", "kind", "egress", "ingress", "requests_per_s", "source", "note"});
  auto name = r.Text("name");
  file->set_context(name ? fmt::format("storage target '{}'", *name) : "storage target");
  r.CheckKeys();
  auto kind = r.Text("kind");
  auto egress = r.Gbps("egress");
  auto ingress = r.Gbps("ingress");
  auto rps = r.PerSecond("requests_per_s");
  auto source = r.Text("source");
  auto note = r.Text("note", false);
  if (!name || !kind || !egress || !ingress || !rps || !source) return std::nullopt;
  StorageTarget t;
  t.name = *name;
  t.kind = *kind;
  t.egress_gbps = *egress;
  t.ingress_gbps = *ingress;
  t.requests_per_s = *rps;
  t.source = *source;
  t.note = note.value_or("");
  t.file = file->path();
  t.line = row.Mark().line + 1;
  return t;
}

// Replaces the row with the same name (by `same`) or appends; warns when one file names a row
// twice.
template <typename Row, typename Same>
void Upsert(std::vector<Row>* rows, Row row, std::set<std::string>* seen_in_file, Same same,
            FileReader* file, const YAML::Mark& mark) {
  std::string key = ToLower(row.name);
  if (!seen_in_file->insert(key).second)
    file->Warning(codes::kKbDuplicate, mark,
                  fmt::format("'{}' appears twice in this file; the later row wins", row.name));
  for (auto& existing : *rows) {
    if (same(existing.name, row.name)) {
      existing = std::move(row);
      return;
    }
  }
  rows->push_back(std::move(row));
}

const StorageTarget& FallbackTarget(bool listed) {
  // Used only when the knowledge base lacks the standard rows (Load then reported K307); keeps
  // TargetForRegion total so callers never hold a dangling reference.
  static const StorageTarget kListed{std::string(KnowledgeBase::kStandardListed),
                                     "standard_gpv2",
                                     200,
                                     60,
                                     40000,
                                     "built-in fallback (scalability-targets-standard-account)",
                                     "",
                                     0,
                                     ""};
  static const StorageTarget kOther{std::string(KnowledgeBase::kStandardOther),
                                    "standard_gpv2",
                                    50,
                                    25,
                                    20000,
                                    "built-in fallback (scalability-targets-standard-account)",
                                    "",
                                    0,
                                    ""};
  return listed ? kListed : kOther;
}

Provenance KbProvenance(const std::string& file, int line, const std::string& name) {
  Provenance p;
  p.origin = FactOrigin::kKnowledge;
  p.source = fmt::format("knowledge base: {}:{} {}", file, line, name);
  p.file = file;
  p.line = line;
  return p;
}

}  // namespace

std::string NormalizeRegion(std::string_view region) {
  std::string out;
  for (char c : region) {
    if (c == ' ' || c == '-' || c == '_' || c == '\t') continue;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

bool KnowledgeBase::LoadFile(const std::string& path, DiagnosticList* diagnostics,
                             const std::string& display_path) {
  const std::string& shown = display_path.empty() ? path : display_path;
  std::string text, error;
  if (!ReadBoundedRegularFile(path, kMaxConfigFileBytes, &text, &error)) {
    Diagnostic d;
    d.code = std::string(codes::kKbUnreadable);
    d.message = fmt::format("cannot read knowledge-base file '{}': {}", path, error);
    d.location.file = shown;
    diagnostics->Add(std::move(d));
    return false;
  }
  return LoadText(shown, text, diagnostics);
}

bool KnowledgeBase::LoadText(const std::string& shown, const std::string& text,
                             DiagnosticList* diagnostics) {
  FileReader file(shown, SplitLines(text), diagnostics);

  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    file.Error(codes::kKbSyntax, e.mark, fmt::format("YAML syntax error: {}", e.msg));
    return false;
  }
  if (!root || root.IsNull()) return true;  // an empty file overrides nothing
  if (!root.IsMap()) {
    file.Error(codes::kKbShape, root.Mark(),
               "expected a map with 'vm_sizes', 'storage_targets' and/or 'listed_regions'");
    return false;
  }

  try {
    for (const auto& kv : root) {
      const std::string section = kv.first.Scalar();
      const YAML::Node& value = kv.second;
      file.set_context(section);
      if (section == "vm_sizes" || section == "storage_targets" || section == "read_prices") {
        if (!value.IsSequence()) {
          file.Error(codes::kKbShape, value.Mark(),
                     fmt::format("'{}' must be a list of rows", section));
          continue;
        }
        std::set<std::string> seen;
        for (const auto& row : value) {
          if (!row.IsMap()) {
            file.set_context(section);
            file.Error(codes::kKbShape, row.Mark(), "each row must be a map of fields");
            continue;
          }
          if (section == "vm_sizes") {
            if (auto vm = ReadVm(row, &file))
              Upsert(
                  &vms_, std::move(*vm), &seen,
                  [](const std::string& a, const std::string& b) { return VmKey(a) == VmKey(b); },
                  &file, row.Mark());
          } else if (section == "read_prices") {
            if (auto price = ReadStorageReadPrice(row, &file))
              Upsert(
                  &read_prices_, std::move(*price), &seen,
                  [](const std::string& a, const std::string& b) {
                    return ToLower(a) == ToLower(b);
                  },
                  &file, row.Mark());
          } else if (auto t = ReadTarget(row, &file)) {
            Upsert(
                &targets_, std::move(*t), &seen,
                [](const std::string& a, const std::string& b) { return ToLower(a) == ToLower(b); },
                &file, row.Mark());
          }
        }
      } else if (section == "listed_regions" || section == "other_regions") {
        std::vector<std::string>* list =
            section == "listed_regions" ? &listed_regions_ : &other_regions_;
        YAML::Node regions = value.IsMap() ? value["regions"] : value;
        if (value.IsMap()) {
          for (const auto& field : value)
            if (field.first.Scalar() != "regions" && field.first.Scalar() != "source")
              file.Warning(codes::kKbUnknownKey, field.first.Mark(),
                           fmt::format("unknown key '{}' (ignored)", field.first.Scalar()));
        }
        if (!regions || !regions.IsSequence()) {
          file.Error(codes::kKbShape, value.Mark(),
                     fmt::format("'{}' must be a list of region names (or a map with 'regions')",
                                 section));
          continue;
        }
        for (const auto& r : regions) {
          if (!r.IsScalar() || NormalizeRegion(r.Scalar()).empty()) {
            file.Error(codes::kKbBadValue, r.Mark(), "a region must be a name such as 'East US'");
            continue;
          }
          if (list == &listed_regions_ && !IsListedRegion(r.Scalar())) {
            // A listed region of an override file moves out of the other regions.
            const std::string key = NormalizeRegion(r.Scalar());
            other_regions_.erase(
                std::remove_if(other_regions_.begin(), other_regions_.end(),
                               [&](const std::string& o) { return NormalizeRegion(o) == key; }),
                other_regions_.end());
            list->push_back(r.Scalar());
          } else if (list == &other_regions_ && !IsKnownRegion(r.Scalar())) {
            list->push_back(r.Scalar());
          }
        }
      } else {
        file.Warning(codes::kKbUnknownKey, kv.first.Mark(),
                     fmt::format("unknown section '{}' (ignored); known: vm_sizes, "
                                 "storage_targets, read_prices, listed_regions, other_regions",
                                 section));
      }
    }
  } catch (const YAML::Exception& e) {
    // Structural surprises (a scalar where a map was expected deep inside) end this file only.
    file.Error(codes::kKbShape, e.mark, fmt::format("unexpected structure: {}", e.msg));
  }
  return file.errors() == 0;
}

bool KnowledgeBase::Load(const std::string& data_dir,
                         const std::vector<std::string>& override_files, KnowledgeBase* out,
                         DiagnosticList* diagnostics) {
  bool ok = true;
  // The embedded knowledge base, each file replaced by the folder's file of the same name.
  const std::vector<OverlaidFile> builtins =
      OverlayFolder(EmbeddedKnowledgeBase(), data_dir, "data/", false);
  if (builtins.empty()) {
    Diagnostic d;
    d.code = std::string(codes::kKbUnreadable);
    d.message = fmt::format("no knowledge base (*.yaml) in '{}'; set FEEDCHECK_HOME or reinstall",
                            data_dir);
    d.location.file = data_dir;
    diagnostics->Add(std::move(d));
    ok = false;
  }
  for (const auto& file : builtins)
    ok = (file.path.empty() ? out->LoadText(file.name, file.text, diagnostics)
                            : out->LoadFile(file.path, diagnostics, file.name)) &&
         ok;
  for (const auto& path : override_files) ok = out->LoadFile(path, diagnostics) && ok;
  for (std::string_view required : {kStandardListed, kStandardOther}) {
    if (!out->FindTarget(required)) {
      Diagnostic d;
      d.code = std::string(codes::kKbMissingRow);
      d.message = fmt::format(
          "storage target '{}' is missing; region defaults use built-in figures", required);
      d.location.file = data_dir;
      diagnostics->Add(std::move(d));
      ok = false;
    }
  }
  return ok;
}

const StorageReadPrice* KnowledgeBase::FindReadPrice(std::string_view tier) const {
  for (const auto& p : read_prices_)
    if (ToLower(p.name) == ToLower(tier)) return &p;
  return nullptr;
}

const VmSize* KnowledgeBase::FindVm(std::string_view name) const {
  const std::string key = VmKey(name);
  if (key.empty()) return nullptr;
  for (const auto& vm : vms_)
    if (VmKey(vm.name) == key) return &vm;
  return nullptr;
}

std::vector<std::string> KnowledgeBase::SuggestVm(std::string_view name) const {
  // Compare without the common "Standard_" prefix so it does not drown the real difference.
  std::vector<std::string> short_names;
  for (const auto& vm : vms_) short_names.push_back(VmKey(vm.name));
  std::vector<std::string> out;
  for (const auto& s : Suggest(VmKey(name), short_names, 3))
    for (const auto& vm : vms_)
      if (VmKey(vm.name) == s) out.push_back(vm.name);
  return out;
}

const StorageTarget* KnowledgeBase::FindTarget(std::string_view name) const {
  const std::string key = ToLower(name);
  for (const auto& t : targets_)
    if (ToLower(t.name) == key) return &t;
  return nullptr;
}

std::vector<std::string> KnowledgeBase::SuggestTarget(std::string_view name) const {
  std::vector<std::string> names;
  for (const auto& t : targets_) names.push_back(t.name);
  return Suggest(name, names, 3);
}

bool KnowledgeBase::IsListedRegion(std::string_view region) const {
  const std::string key = NormalizeRegion(region);
  if (key.empty()) return false;
  for (const auto& r : listed_regions_)
    if (NormalizeRegion(r) == key) return true;
  return false;
}

std::string VmLabel(const VmSize& vm) {
  return vm.retired_on.empty() ? vm.name : fmt::format("{} (retired {})", vm.name, vm.retired_on);
}

bool KnowledgeBase::IsKnownRegion(std::string_view region) const {
  const std::string key = NormalizeRegion(region);
  if (key.empty()) return false;
  for (const auto* list : {&listed_regions_, &other_regions_})
    for (const auto& r : *list)
      if (NormalizeRegion(r) == key) return true;
  return false;
}

std::vector<std::string> KnowledgeBase::SuggestRegion(std::string_view region) const {
  // Compared in the normalised spelling ("eastuss" vs "eastus"), shown as the API name.
  std::vector<std::string> keys;
  for (const auto* list : {&listed_regions_, &other_regions_})
    for (const auto& r : *list) keys.push_back(NormalizeRegion(r));
  return Suggest(NormalizeRegion(region), keys, 3);
}

const StorageTarget& KnowledgeBase::TargetForRegion(std::string_view region) const {
  const bool listed = IsListedRegion(region);
  if (const StorageTarget* t = FindTarget(listed ? kStandardListed : kStandardOther)) return *t;
  return FallbackTarget(listed);
}

void KnowledgeBase::AddNodeFacts(const VmSize& vm, FactSet* facts) const {
  const Provenance p = KbProvenance(vm.file, vm.line, vm.name);
  facts->Set(TextFact("node.sku", vm.name, p));
  facts->Set(NumberFact("node.vcpus", vm.vcpus, Unit::kCount, p));
  facts->Set(NumberFact("node.gpus", vm.gpus, Unit::kCount, p));
  if (!vm.gpu_model.empty()) facts->Set(TextFact("node.gpu_model", vm.gpu_model, p));
  facts->Set(NumberFact("node.ram_bytes", vm.ram_bytes, Unit::kBytes, p));
  facts->Set(NumberFact("node.nic_gbps", vm.nic_gbps, Unit::kGbps, p));
  facts->Set(NumberFact("node.local_disk_bytes", vm.local_disk_bytes, Unit::kBytes, p));
  if (!vm.retired_on.empty()) facts->Set(TextFact("node.retired_on", vm.retired_on, p));
}

void KnowledgeBase::AddAccountFacts(const StorageTarget& t, FactSet* facts) const {
  const Provenance p = KbProvenance(t.file, t.line, t.name);
  facts->Set(TextFact("account.kind", t.kind, p));
  // 0 means "no published limit": leave the fact absent so rules say "not evaluated".
  if (t.egress_gbps > 0)
    facts->Set(NumberFact("account.egress_gbps", t.egress_gbps, Unit::kGbps, p));
  if (t.ingress_gbps > 0)
    facts->Set(NumberFact("account.ingress_gbps", t.ingress_gbps, Unit::kGbps, p));
  if (t.requests_per_s > 0)
    facts->Set(NumberFact("account.requests_per_s", t.requests_per_s, Unit::kPerSecond, p));
}

}  // namespace feedcheck
