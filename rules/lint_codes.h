// The codes of `feedcheck lint`'s problems, each with a name, a one-line summary and the help a
// code-scanning UI shows (SARIF's rule list), so every code that can appear is described once.
#pragma once

#include <string>
#include <vector>

namespace feedcheck::rules {

// Problem codes (stable; tests pin them).
inline constexpr const char* kLintWrongMode = "L001";
inline constexpr const char* kLintMissingEnv = "L002";
inline constexpr const char* kLintContradictingEnv = "L003";
inline constexpr const char* kLintEgress = "L004";
inline constexpr const char* kLintOther = "L005";
inline constexpr const char* kLintNoEffect = "L006";        ///< a setting for the other input mode
inline constexpr const char* kLintUnknownSetting = "L007";  ///< a misspelt data-runtime setting
inline constexpr const char* kLintBadValue = "L008";        ///< a value the guide does not allow
inline constexpr const char* kLintUnknownKey = "L009";      ///< a key that is a schema key misspelt
inline constexpr const char* kLintNodeSize = "L010";        ///< no VM size: checks not evaluated
inline constexpr const char* kLintDirect = "L011";          ///< data read outside the data runtime
inline constexpr const char* kLintSecret = "L012";          ///< a credential in the job file

struct LintCode {
  const char* code;
  const char* name;     ///< PascalCase, as SARIF's reportingDescriptor.name
  const char* summary;  ///< one line
  const char* help;     ///< what to do about it
  const char* level;    ///< the usual SARIF level: "error", "warning" or "note"
};

/// Every code lint can report, in code order.
const std::vector<LintCode>& LintCodes();

/// The public page the codes' advice comes from.
inline constexpr const char* kLintGuideUrl =
    "https://learn.microsoft.com/azure/machine-learning/how-to-read-write-data-v2";

}  // namespace feedcheck::rules
