// Reading a user's YAML file (a rules file, a profile, a job file): the whole text, then the
// document, each failure one diagnostic of the same shape: a code, file:line:column and
// yaml-cpp's message made readable (rule_messages.h YamlErrorMessage).
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>

#include "core/diagnostic.h"

namespace feedcheck::rules {

/// Reads the whole file into `out`. False, with `code` "cannot read the <what>" at `path`, when
/// it cannot be opened.
bool ReadInputFile(const std::string& path, std::string_view what, const char* code,
                   std::string* out, DiagnosticList* diagnostics);

/// An error at a YAML exception's mark in `name` (yaml-cpp counts lines and columns from 0).
Diagnostic YamlExceptionDiagnostic(const std::string& name, const YAML::Exception& e,
                                   const char* code);

/// Parses `content` into `out`. False, with a codes::kYamlSyntax error where parsing stopped, on
/// malformed YAML or nesting past yaml-cpp's recursion guard; false with a codes::kDuplicateKey
/// error per repeat (naming both lines) when a mapping gives a key twice.
bool ParseYaml(const std::string& name, const std::string& content, YAML::Node* out,
               DiagnosticList* diagnostics);

/// The 1-based line of a node (yaml-cpp counts from 0).
inline int Line(const YAML::Node& node) { return node.Mark().line + 1; }

/// A scalar node's text; "" for a missing node, a sequence or a mapping.
inline std::string Scalar(const YAML::Node& node) {
  return node && node.IsScalar() ? node.as<std::string>() : std::string();
}

}  // namespace feedcheck::rules
