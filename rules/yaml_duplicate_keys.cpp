#include "rules/yaml_duplicate_keys.h"

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <sstream>
#include <unordered_map>
#include <vector>

#include "core/diagnostic_codes.h"
#include "rules/rule_messages.h"

namespace feedcheck::rules {
namespace {

class DuplicateKeyFinder : public YAML::EventHandler {
 public:
  DuplicateKeyFinder(const std::string& name, DiagnosticList* diagnostics)
      : name_(name), diagnostics_(diagnostics) {}
  int found() const { return found_; }

  void OnDocumentStart(const YAML::Mark&) override { stack_.clear(); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { Node(mark, nullptr); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { Node(mark, nullptr); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                const std::string& value) override {
    Node(mark, &value);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    Node(mark, nullptr);
    stack_.push_back({});
  }
  void OnSequenceEnd() override { Pop(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    Node(mark, nullptr);
    Frame map;
    map.is_map = true;
    stack_.push_back(std::move(map));
  }
  void OnMapEnd() override { Pop(); }

 private:
  struct Frame {
    bool is_map = false;
    bool expecting_key = true;
    std::unordered_map<std::string, int> first_line;  // key -> 1-based line
  };

  // Every node starts here: in a mapping, nodes alternate key, value.
  void Node(const YAML::Mark& mark, const std::string* scalar) {
    if (stack_.empty() || !stack_.back().is_map) return;
    Frame& map = stack_.back();
    bool is_key = map.expecting_key;
    map.expecting_key = !map.expecting_key;
    if (!is_key || scalar == nullptr || *scalar == "<<") return;
    int line = mark.line + 1;
    auto [at, inserted] = map.first_line.emplace(*scalar, line);
    if (inserted) return;
    ++found_;
    diagnostics_->Add(Diagnostic{
        codes::kDuplicateKey,
        DiagnosticSeverity::kError,
        fmt::format("key '{}' is given twice in one mapping, at line {} and again at line {}: "
                    "remove one (YAML readers differ on which one counts)",
                    Printable(*scalar), at->second, line),
        {name_, line, mark.column + 1},
        "",
        ""});
  }
  void Pop() {
    if (!stack_.empty()) stack_.pop_back();
  }
  static std::string Printable(const std::string& key) {
    std::string out;
    for (char c : key.substr(0, 80))
      out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
    return key.size() > 80 ? out + "..." : out;
  }

  const std::string& name_;
  DiagnosticList* diagnostics_;
  std::vector<Frame> stack_;
  int found_ = 0;
};

}  // namespace

int FindDuplicateYamlKeys(const std::string& name, const std::string& content,
                          DiagnosticList* diagnostics) {
  std::istringstream in(content);
  DuplicateKeyFinder finder(name, diagnostics);
  try {
    // The first document only: that is the one the loaders read (YAML::Load), and yaml-cpp 0.7
    // can report "another document" forever on some malformed streams (found by fuzz_job_yaml).
    YAML::Parser parser(in);
    parser.HandleNextDocument(finder);
  } catch (const YAML::Exception&) {
    // Syntax errors are reported by the loader, which ran first.
  }
  return finder.found();
}

}  // namespace feedcheck::rules
