// The diagnostic code registry: every code feedcheck reports, with a stable name, its usual
// severity, a one-line summary and what to do. Emitters take their code from `codes::`;
// docs/diagnostics.md and SARIF's rule list are printed from DiagnosticCodes().
#pragma once

#include <span>
#include <string_view>

#include "core/diagnostic.h"

namespace feedcheck {

/// One code as the registry describes it (core/diagnostic_codes.cpp).
struct DiagnosticCodeInfo {
  const char* code;             ///< "A201": a letter for the family, three digits
  const char* name;             ///< PascalCase, stable (SARIF's reportingDescriptor.name)
  DiagnosticSeverity severity;  ///< the usual severity; an emitter may raise or lower it
  const char* summary;          ///< one line: what happened
  const char* help;             ///< what to do about it
};

/// A family of codes: the codes that start with `prefix` ("A2", "W1").
struct DiagnosticFamily {
  const char* prefix;
  const char* title;  ///< "Analyzers"
  const char* about;  ///< who reports them, one sentence
};

/// Every code, in code order (a code is never reused: retired codes stay out of the table).
std::span<const DiagnosticCodeInfo> DiagnosticCodes();
/// The families in code order; every code belongs to exactly one.
std::span<const DiagnosticFamily> DiagnosticFamilies();
/// The registry's entry for `code`, or nullptr when it is not a registered code.
const DiagnosticCodeInfo* FindDiagnosticCode(std::string_view code);

/// The codes by name: emitters and tests use these, never the text. Each value appears once in
/// the tree (scripts/check-diagnostic-codes.sh) and has its entry in the registry's table.
namespace codes {

inline constexpr const char* kFormatNotRecognised = "A200";
inline constexpr const char* kMalformedLine = "A201";
inline constexpr const char* kUnreadableFile = "A202";
inline constexpr const char* kOutOfOrder = "A203";
inline constexpr const char* kTimelineFull = "A204";
inline constexpr const char* kUnfinished = "A205";
inline constexpr const char* kTooManySpans = "A206";
inline constexpr const char* kCutLastLine = "A207";
inline constexpr const char* kEventCut = "A208";
inline constexpr const char* kMetricsField = "A210";
inline constexpr const char* kBadMetricsJson = "A211";
inline constexpr const char* kNotMetrics = "A212";
inline constexpr const char* kOtherAccountMetrics = "A213";
inline constexpr const char* kInputCut = "A214";
inline constexpr const char* kSparseFile = "A215";
inline constexpr const char* kMetricsSeriesAtCap = "A216";
inline constexpr const char* kGpuNoValue = "A220";
inline constexpr const char* kGpuNoTimestamp = "A221";
inline constexpr const char* kTooManyGpus = "A222";
inline constexpr const char* kGpuLocalTime = "A223";
inline constexpr const char* kGpuSourcesMerged = "A224";
inline constexpr const char* kTraceCut = "A240";
inline constexpr const char* kTraceRefused = "A241";
inline constexpr const char* kTraceEvent = "A242";
inline constexpr const char* kTraceClock = "A243";

inline constexpr const char* kFactsFileInvalid = "E001";
inline constexpr const char* kFactsSchemaVersion = "E002";
inline constexpr const char* kReportInvalid = "E010";
inline constexpr const char* kReportUnreadable = "E011";

inline constexpr const char* kKbUnreadable = "K301";
inline constexpr const char* kKbSyntax = "K302";
inline constexpr const char* kKbMissingField = "K303";
inline constexpr const char* kKbBadValue = "K304";
inline constexpr const char* kKbUnknownKey = "K305";
inline constexpr const char* kKbDuplicate = "K306";
inline constexpr const char* kKbMissingRow = "K307";
inline constexpr const char* kKbShape = "K308";

inline constexpr const char* kLintWrongMode = "L001";
inline constexpr const char* kLintMissingEnv = "L002";
inline constexpr const char* kLintContradictingEnv = "L003";
inline constexpr const char* kLintEgress = "L004";
inline constexpr const char* kLintOther = "L005";
inline constexpr const char* kLintNoEffect = "L006";
inline constexpr const char* kLintUnknownSetting = "L007";
inline constexpr const char* kLintBadValue = "L008";
inline constexpr const char* kLintUnknownKey = "L009";
inline constexpr const char* kLintNodeSize = "L010";
inline constexpr const char* kLintDirect = "L011";
inline constexpr const char* kLintSecret = "L012";

inline constexpr const char* kRankNotStarted = "M001";
inline constexpr const char* kRankReportUnreadable = "M002";
inline constexpr const char* kRankProbeStatus = "M003";

inline constexpr const char* kStagesSkippedOnPath = "P101";

inline constexpr const char* kListingIncomplete = "P301";
inline constexpr const char* kEntriesUnreadable = "P302";

inline constexpr const char* kDiskDeviceNote = "P401";
inline constexpr const char* kDiskDeviceUnknown = "P402";
inline constexpr const char* kDiskWriteNote = "P403";

inline constexpr const char* kNicNoLinkSpeed = "P501";
inline constexpr const char* kNicNotAccelerated = "P502";
inline constexpr const char* kNicBelowVmSize = "P503";

inline constexpr const char* kSmallFilesNoFit = "P601";
inline constexpr const char* kSmallFilesSizePlan = "P602";

inline constexpr const char* kYamlSyntax = "R001";
inline constexpr const char* kRulesNotAList = "R002";
inline constexpr const char* kRuleNotAMap = "R003";
inline constexpr const char* kRuleMissingField = "R004";
inline constexpr const char* kRuleUnknownField = "R005";
inline constexpr const char* kBadSeverity = "R006";
inline constexpr const char* kDuplicateRuleId = "R007";
inline constexpr const char* kWrongFieldType = "R008";
inline constexpr const char* kRulesUnreadable = "R009";
inline constexpr const char* kRuleOverride = "R010";
inline constexpr const char* kDuplicateKey = "R011";

inline constexpr const char* kConditionSyntax = "R101";
inline constexpr const char* kConditionTooDeep = "R102";
inline constexpr const char* kUnknownFact = "R103";
inline constexpr const char* kUnitMismatch = "R104";
inline constexpr const char* kTypeMismatch = "R105";
inline constexpr const char* kBadUnit = "R106";
inline constexpr const char* kBadCall = "R107";
inline constexpr const char* kConditionTooLong = "R108";

inline constexpr const char* kBadTemplate = "R201";
inline constexpr const char* kBadEnvName = "R203";
inline constexpr const char* kBadConfigKind = "R204";
inline constexpr const char* kBadMode = "R205";
inline constexpr const char* kBadClass = "R206";
inline constexpr const char* kBadBasis = "R207";
inline constexpr const char* kUndocumentedSetting = "R214";

inline constexpr const char* kProfileField = "R301";
inline constexpr const char* kProfileValue = "R302";
inline constexpr const char* kJobFile = "R303";
inline constexpr const char* kUnknownVm = "R304";
inline constexpr const char* kUnknownRegion = "R305";

inline constexpr const char* kBadFlag = "W001";
inline constexpr const char* kMissingInput = "W002";
inline constexpr const char* kNothingReadable = "W003";
inline constexpr const char* kUnreadableResult = "W004";
inline constexpr const char* kInputErrors = "W005";
inline constexpr const char* kNotRead = "W006";
inline constexpr const char* kJobNotDiagnosed = "W020";
inline constexpr const char* kNotAJob = "W021";
inline constexpr const char* kJobWarnings = "W022";
inline constexpr const char* kNoPublicPrice = "W023";
inline constexpr const char* kInsideAJob = "W024";
inline constexpr const char* kAzMissing = "W040";
inline constexpr const char* kAzNotLoggedIn = "W041";
inline constexpr const char* kAzForbidden = "W042";
inline constexpr const char* kAzNotFound = "W043";
inline constexpr const char* kAzFailed = "W044";
inline constexpr const char* kAzBadOutput = "W045";
inline constexpr const char* kAzTimeout = "W046";
inline constexpr const char* kAzAccountElsewhere = "W047";
inline constexpr const char* kAzNoMlExtension = "W048";
inline constexpr const char* kAzSeriesCapped = "W049";

inline constexpr const char* kProbeBadFlag = "W101";
inline constexpr const char* kBadTarget = "W102";
inline constexpr const char* kCredential = "W103";
inline constexpr const char* kWeakened = "W104";
inline constexpr const char* kProbeStatus = "W105";
inline constexpr const char* kAccessDenied = "W106";
inline constexpr const char* kTestDataLeft = "W108";
}  // namespace codes

}  // namespace feedcheck
