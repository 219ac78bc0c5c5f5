// Message texts of the rules engine, in one place so tests can assert on them (Falco's
// rule_loading_messages.h). Their codes (R0xx-R3xx) are in the registry, core/diagnostic_codes.h.
#pragma once

#include <exception>
#include <string>

namespace feedcheck::rules {

// Message texts (fmt patterns where they take arguments).
/// yaml-cpp's message for a YAML exception, with a readable text for its recursion guard
/// (which otherwise says "bad file").
std::string YamlErrorMessage(const std::exception& e);

inline constexpr const char* kMsgYamlTooDeep = "YAML nests deeper than {} levels";
inline constexpr const char* kMsgNotAList = "a rules file is a YAML list of rules";
inline constexpr const char* kMsgRuleNotAMap =
    "a rule is a mapping with id, title, severity, when, say, source";
inline constexpr const char* kMsgMissingField = "rule has no '{}'";
inline constexpr const char* kMsgUnknownField = "unknown field '{}' is ignored";
inline constexpr const char* kMsgBadSeverity =
    "severity '{}' is not one of critical, warning, info";
inline constexpr const char* kMsgDuplicateId = "rule id '{}' is already defined at {}";
inline constexpr const char* kMsgOverride = "rule '{}' replaces the rule defined at {}";
inline constexpr const char* kMsgWrongFieldType = "'{}' must be {}";
inline constexpr const char* kMsgUnexpectedChar = "unexpected character '{}'";
inline constexpr const char* kMsgUnterminatedString = "string is not terminated";
inline constexpr const char* kMsgExpected = "expected {} but found {}";
inline constexpr const char* kMsgTooDeep = "expression nests deeper than {} levels";
inline constexpr const char* kMsgTooLong = "expression is longer than {} characters";
inline constexpr const char* kMsgUnknownFact = "unknown fact '{}'";
inline constexpr const char* kMsgDidYouMean = "; did you mean '{}'?";
inline constexpr const char* kMsgUnitMismatch = "unit mismatch: {} ({}) {} {} ({})";
inline constexpr const char* kMsgTypeMismatch = "type mismatch: {}";
inline constexpr const char* kMsgBadUnit = "bad number '{}': {}";
inline constexpr const char* kMsgUnknownFunction = "unknown function '{}' (known: {})";
inline constexpr const char* kMsgArgCount = "{}() takes {} argument(s), got {}";
inline constexpr const char* kMsgExcessNotRatio =
    "excess must be a ratio without unit (limit used / limit), not {}";
inline constexpr const char* kMsgGaugeHalf =
    "'{}' needs '{}' too: a chart draws what is needed against the limit it meets";
inline constexpr const char* kMsgGaugeNotQuantity = "{} must be a number, not {}";
inline constexpr const char* kMsgGaugeDimensions =
    "demand and limit must measure one thing (both rates, both sizes...), not {} and {}";
inline constexpr const char* kMsgBadCriticalAbove =
    "critical_above '{}' must be a number above 1, and needs an 'excess' expression";
inline constexpr const char* kMsgConditionNotBool = "the condition must be true/false, not {}";
inline constexpr const char* kMsgUnclosedBrace = "'{' is not closed by '}'";
inline constexpr const char* kMsgStrayBrace = "'}' without '{' (write '}}' for a literal brace)";
inline constexpr const char* kMsgEmptyPlaceholder = "empty '{}' placeholder";
inline constexpr const char* kMsgBadEnvName =
    "'{}' is not an environment variable name (A-Z, 0-9, _)";
inline constexpr const char* kMsgBadConfigKind = "config kind '{}' is not one of blobfuse2";
inline constexpr const char* kMsgBadClass =
    "class '{}' is not one of account_egress, request_rate, client_threads, small_files, "
    "access_mode, cache_disk, none";
inline constexpr const char* kMsgBadBasis = "basis '{}' is not one of observed, capacity";
inline constexpr const char* kMsgBadMode = "mode '{}' is not one of download, ro_mount, direct";

}  // namespace feedcheck::rules
