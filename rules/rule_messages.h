// Diagnostic codes and message texts of the rules engine, in one place so tests can assert on
// them (Falco's rule_loading_messages.h). Codes are stable: R0xx reading, R1xx conditions,
// R2xx templates, env and config, R3xx profiles and job files.
#pragma once

#include <exception>
#include <string>

namespace feedcheck::rules {

// --- reading (YAML -> RuleInfo) ---
inline constexpr const char* kCodeYamlSyntax = "R001";
inline constexpr const char* kCodeNotAList = "R002";
inline constexpr const char* kCodeRuleNotAMap = "R003";
inline constexpr const char* kCodeMissingField = "R004";
inline constexpr const char* kCodeUnknownField = "R005";  // warning
inline constexpr const char* kCodeBadSeverity = "R006";
inline constexpr const char* kCodeDuplicateId = "R007";
inline constexpr const char* kCodeWrongFieldType = "R008";
inline constexpr const char* kCodeUnreadable = "R009";
inline constexpr const char* kCodeOverride = "R010";  // warning
inline constexpr const char* kCodeDuplicateKey = "R011";

// --- conditions ---
inline constexpr const char* kCodeSyntax = "R101";
inline constexpr const char* kCodeTooDeep = "R102";
inline constexpr const char* kCodeUnknownFact = "R103";
inline constexpr const char* kCodeUnitMismatch = "R104";
inline constexpr const char* kCodeTypeMismatch = "R105";
inline constexpr const char* kCodeBadUnit = "R106";
inline constexpr const char* kCodeBadCall = "R107";
inline constexpr const char* kCodeTooLong = "R108";

// --- templates, env, config ---
inline constexpr const char* kCodeBadTemplate = "R201";
inline constexpr const char* kCodeBadEnvName = "R203";
/// A warning: an env name with the data runtime's prefix that the guide does not document.
inline constexpr const char* kCodeUndocumentedSetting = "R214";
inline constexpr const char* kCodeBadConfigKind = "R204";
inline constexpr const char* kCodeBadMode = "R205";
inline constexpr const char* kCodeBadClass = "R206";
inline constexpr const char* kCodeBadBasis = "R207";

// --- profiles and job files ---
inline constexpr const char* kCodeProfileField = "R301";
inline constexpr const char* kCodeProfileValue = "R302";
inline constexpr const char* kCodeJobFile = "R303";
inline constexpr const char* kCodeUnknownVm = "R304";
inline constexpr const char* kCodeUnknownRegion = "R305";

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
