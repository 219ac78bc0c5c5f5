// Reading one knowledge-base YAML file: problems reported with file:line and the line's text,
// and a row's fields read one by one (each bad field one diagnostic). Used by the knowledge
// base's section readers (core/knowledge_base.cpp, core/kb_prices.cpp).
#pragma once

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "core/diagnostic_codes.h"
#include "core/edit_distance.h"
#include "core/units.h"

namespace feedcheck::kb {

// Everything one file's parse needs to report a row-level problem with file:line and snippet.
class FileReader {
 public:
  FileReader(std::string path, std::vector<std::string> lines, DiagnosticList* diagnostics)
      : path_(std::move(path)), lines_(std::move(lines)), diagnostics_(diagnostics) {}

  void Report(std::string_view code, DiagnosticSeverity severity, const YAML::Mark& mark,
              std::string message) {
    Diagnostic d;
    d.code = std::string(code);
    d.severity = severity;
    d.message = std::move(message);
    d.location.file = path_;
    if (mark.line >= 0) {
      d.location.line = mark.line + 1;
      d.location.column = mark.column + 1;
      if (static_cast<size_t>(mark.line) < lines_.size()) d.snippet = lines_[mark.line];
    }
    d.context = context_;
    if (severity == DiagnosticSeverity::kError) ++errors_;
    diagnostics_->Add(std::move(d));
  }
  void Error(std::string_view code, const YAML::Mark& mark, std::string message) {
    Report(code, DiagnosticSeverity::kError, mark, std::move(message));
  }
  void Warning(std::string_view code, const YAML::Mark& mark, std::string message) {
    Report(code, DiagnosticSeverity::kWarning, mark, std::move(message));
  }
  void set_context(std::string context) { context_ = std::move(context); }
  const std::string& path() const { return path_; }
  int errors() const { return errors_; }

 private:
  std::string path_;
  std::vector<std::string> lines_;
  DiagnosticList* diagnostics_;
  std::string context_;
  int errors_ = 0;
};

// Reads the fields of one row. Each getter reports its own problem and returns nullopt, so a
// row with three bad fields gets three diagnostics, then is skipped as a whole.
class RowReader {
 public:
  RowReader(const YAML::Node& row, FileReader* file, std::set<std::string> known_keys)
      : row_(row), file_(file), known_(std::move(known_keys)) {}

  void CheckKeys() {
    for (const auto& kv : row_) {
      std::string key = kv.first.Scalar();
      if (known_.count(key) == 0) {
        std::vector<std::string> candidates(known_.begin(), known_.end());
        auto near = Suggest(key, candidates, 1);
        // "nic_speed" is too far from "nic" by edit distance but plainly meant it.
        for (const auto& c : candidates)
          if (near.empty() && key.rfind(c, 0) == 0) near.push_back(c);
        file_->Warning(
            codes::kKbUnknownKey, kv.first.Mark(),
            fmt::format("unknown key '{}' (ignored){}", key,
                        near.empty() ? "" : fmt::format("; did you mean '{}'?", near[0])));
      }
    }
  }

  std::optional<std::string> Text(const char* field, bool required = true) {
    YAML::Node n = row_[field];
    if (!n) {
      if (required) Missing(field);
      return std::nullopt;
    }
    if (!n.IsScalar()) {
      Bad(n, field, "expected text");
      return std::nullopt;
    }
    return n.Scalar();
  }

  std::optional<int> Count(const char* field) {
    auto v = Number(field, [](std::string_view text, std::string* err) -> std::optional<double> {
      auto q = ParseQuantity(text, err);
      if (!q) return std::nullopt;
      if (q->unit != Unit::kCount) {
        *err = fmt::format("'{}' should be a plain count", text);
        return std::nullopt;
      }
      if (q->value != std::floor(q->value) || q->value > 1e6) {
        *err = fmt::format("'{}' should be a whole number", text);
        return std::nullopt;
      }
      return q->value;
    });
    if (!v) return std::nullopt;
    return static_cast<int>(*v);
  }

  std::optional<double> Bytes(const char* field) {
    return Number(field, [](std::string_view text, std::string* err) -> std::optional<double> {
      auto q = ParseQuantity(text, err);
      if (!q) return std::nullopt;
      // A bare number would silently mean bytes: "900" for 900 GiB of RAM is a likely slip.
      if (q->unit == Unit::kCount && q->value != 0) {
        *err = fmt::format("'{}' needs a unit (for example 900 GiB)", text);
        return std::nullopt;
      }
      return ParseBytes(text, err);
    });
  }

  std::optional<double> Gbps(const char* field) {
    return Number(field, [](std::string_view text, std::string* err) -> std::optional<double> {
      auto q = ParseQuantity(text, err);
      if (!q) return std::nullopt;
      if (q->unit == Unit::kCount && q->value == 0) return 0.0;
      auto bps = ParseBitsPerSecond(text, err);
      if (!bps) return std::nullopt;
      return *bps / 1e9;
    });
  }

  /// A plain decimal number ("27.197"), 0 or more; absent and not required: nullopt, no error.
  std::optional<double> Decimal(const char* field, bool required = true) {
    if (!row_[field] && !required) return std::nullopt;
    return Number(field, [](std::string_view text, std::string* err) -> std::optional<double> {
      auto q = ParseQuantity(text, err);
      if (!q) return std::nullopt;
      if (q->unit != Unit::kCount) {
        *err = fmt::format("'{}' should be a plain number (USD, no unit)", text);
        return std::nullopt;
      }
      return q->value;
    });
  }

  std::optional<double> PerSecond(const char* field) {
    return Number(field, [](std::string_view text, std::string* err) -> std::optional<double> {
      auto q = ParseQuantity(text, err);
      if (!q) return std::nullopt;
      if (q->unit != Unit::kCount && q->unit != Unit::kPerSecond) {
        *err = fmt::format("'{}' should be a rate per second (for example 40,000 or 40000 req/s)",
                           text);
        return std::nullopt;
      }
      return q->value;
    });
  }

 private:
  template <typename Parse>
  std::optional<double> Number(const char* field, Parse parse) {
    YAML::Node n = row_[field];
    if (!n) {
      Missing(field);
      return std::nullopt;
    }
    if (!n.IsScalar()) {
      Bad(n, field, "expected a number");
      return std::nullopt;
    }
    std::string err;
    auto v = parse(n.Scalar(), &err);
    if (!v || *v < 0) {
      Bad(n, field, v ? fmt::format("'{}' is negative", n.Scalar()) : err);
      return std::nullopt;
    }
    return v;
  }
  void Missing(const char* field) {
    file_->Error(codes::kKbMissingField, row_.Mark(), fmt::format("missing field '{}'", field));
  }
  void Bad(const YAML::Node& n, const char* field, const std::string& why) {
    file_->Error(codes::kKbBadValue, n.Mark(), fmt::format("bad value for '{}': {}", field, why));
  }

  const YAML::Node& row_;
  FileReader* file_;
  std::set<std::string> known_;
};

inline std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

}  // namespace feedcheck::kb
