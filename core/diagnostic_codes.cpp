#include "core/diagnostic_codes.h"

#include <algorithm>
#include <array>

namespace feedcheck {
namespace {

constexpr DiagnosticSeverity kError = DiagnosticSeverity::kError;
constexpr DiagnosticSeverity kWarning = DiagnosticSeverity::kWarning;
constexpr DiagnosticSeverity kNote = DiagnosticSeverity::kNote;

constexpr std::array kFamilies = {
    DiagnosticFamily{"A2", "Analyzers",
                     "`analyze` and `postmortem` reading logs, metrics and GPU samples"},
    DiagnosticFamily{"E0", "Saved facts and reports",
                     "every command that reads a facts file or a saved report back"},
    DiagnosticFamily{"K3", "Knowledge base",
                     "the loader of `data/*.yaml` and of `--kb` override files"},
    DiagnosticFamily{"L0", "Lint", "`feedcheck lint`'s problems in a job file (also in SARIF)"},
    DiagnosticFamily{"M0", "Multi-node probes", "`feedcheck probe mpi`: a rank, not the storage"},
    DiagnosticFamily{"P1", "Preflight", "`feedcheck preflight`'s stages"},
    DiagnosticFamily{"P3", "Listing probe", "`feedcheck probe list`"},
    DiagnosticFamily{"P4", "Disk probe", "`feedcheck probe disk`"},
    DiagnosticFamily{"P5", "NIC probe", "`feedcheck probe nic`"},
    DiagnosticFamily{"P6", "Small-files probe", "`feedcheck probe smallfiles`"},
    DiagnosticFamily{"R0", "Rules files", "reading a rules file (YAML to rules)"},
    DiagnosticFamily{"R1", "Rule conditions", "a rule's `when:`, `evidence:` and `excess:`"},
    DiagnosticFamily{"R2", "Rule templates, settings and config",
                     "a rule's `say:` template, `env:`, `config:`, `mode:` and `class:`"},
    DiagnosticFamily{"R3", "Profiles and job files",
                     "reading a profile or an Azure ML job file, and the sizes they name"},
    DiagnosticFamily{"W0", "Workflows", "any command: its flags and inputs as a whole"},
    DiagnosticFamily{"W1", "Probe workflows", "the probes and preflight: target, credential, end"},
};

// W107 (a probe's own notes) and W109 (knowledge base unusable in a probe) were defined but never
// reported: retired, and never to be given another meaning.
constexpr std::array kCodes = {
    // --- analyzers ---
    DiagnosticCodeInfo{
        codes::kFormatNotRecognised, "FormatNotRecognised", kWarning,
        "A file given by name is in no format feedcheck reads; it is skipped",
        "Name the format with --input-format (the message lists them), or leave the file out."},
    DiagnosticCodeInfo{codes::kMalformedLine, "MalformedLine", kWarning,
                       "A line that is not in its file's format; it is skipped",
                       "Check the file is the format detected (a cut or mixed log); the other "
                       "lines are still read."},
    DiagnosticCodeInfo{codes::kUnreadableFile, "UnreadableFile", kError,
                       "A file could not be opened or read",
                       "Check the path and its permissions; the message gives the system's "
                       "reason."},
    DiagnosticCodeInfo{codes::kOutOfOrder, "OutOfOrder", kNote,
                       "Log lines went back in time within their file",
                       "Nothing, usually: lines are sorted by time before they are used. Many "
                       "such lines mean files of several runs were concatenated."},
    DiagnosticCodeInfo{codes::kTimelineFull, "TimelineFull", kNote,
                       "More activities than the timeline draws; the rest are counted, not drawn",
                       "Nothing: the totals include them. Analyze one node's folder for a "
                       "complete timeline."},
    DiagnosticCodeInfo{codes::kUnfinished, "Unfinished", kWarning,
                       "Activities that started but never completed in the log",
                       "Look at what the job did at the end (killed, out of memory, still "
                       "running when the logs were copied)."},
    DiagnosticCodeInfo{codes::kTooManySpans, "TooManySpans", kNote,
                       "More distinct data-runtime spans than the bound; the rest are (other)",
                       "Nothing: their time is still counted, under (other)."},
    DiagnosticCodeInfo{codes::kCutLastLine, "CutLastLine", kNote,
                       "A log's last line has no newline: read as it stands",
                       "Nothing, usually: the writer stopped mid-line (a copy taken while the "
                       "job ran)."},
    DiagnosticCodeInfo{codes::kEventCut, "EventCut", kWarning,
                       "An event's continuation lines went on past the bound and were cut",
                       "Nothing for the figures; read the event in the log itself for its full "
                       "text."},
    DiagnosticCodeInfo{codes::kMetricsField, "MetricsField", kWarning,
                       "A field of an Azure Monitor metrics file is missing or unusable",
                       "Export the metrics again with `az monitor metrics list --output json`; "
                       "the other fields are still read."},
    DiagnosticCodeInfo{codes::kBadMetricsJson, "BadMetricsJson", kError,
                       "A metrics file is not valid JSON or could not be read",
                       "Give the JSON Azure Monitor returned, whole (a cut download is "
                       "invalid)."},
    DiagnosticCodeInfo{codes::kNotMetrics, "NotMetrics", kError,
                       "JSON without Azure Monitor's \"value\" array: not a metrics response",
                       "Give the output of `az monitor metrics list` for the storage account, "
                       "or leave the file out."},
    DiagnosticCodeInfo{codes::kOtherAccountMetrics, "OtherAccountMetrics", kWarning,
                       "Metrics of a storage account the job's logs do not read from",
                       "Export the metrics of the account the job reads (the message names "
                       "it), or leave the file out."},
    DiagnosticCodeInfo{codes::kInputCut, "InputCut", kWarning,
                       "A file was read only up to the bound of one input",
                       "Give the part of the log that covers the job (or split the file); the "
                       "figures cover what was read."},
    DiagnosticCodeInfo{codes::kSparseFile, "SparseFile", kNote,
                       "A sparse file: its holes (zeros never written) were skipped unread",
                       "Nothing: holes hold no log lines."},
    DiagnosticCodeInfo{codes::kMetricsSeriesAtCap, "MetricsSeriesAtCap", kWarning,
                       "A split metric holds exactly 10 series, the default top: some may be "
                       "missing",
                       "Fetch it again with --top (feedcheck fetch asks for every series)."},
    DiagnosticCodeInfo{codes::kGpuNoValue, "GpuNoValue", kNote,
                       "GPU samples without a value (N/A, [Not Supported], blank)",
                       "Nothing, usually; many means the sampler could not read the GPUs."},
    DiagnosticCodeInfo{codes::kGpuNoTimestamp, "GpuNoTimestamp", kNote,
                       "GPU samples without a time: in the statistics, not on the timeline",
                       "Sample with a timestamp column (`nvidia-smi --query-gpu=timestamp,...`)."},
    DiagnosticCodeInfo{codes::kTooManyGpus, "TooManyGpus", kNote,
                       "More GPUs than the bound in one file; samples of further GPUs ignored",
                       "Give one node's samples per file."},
    DiagnosticCodeInfo{codes::kGpuLocalTime, "GpuLocalTime", kNote,
                       "nvidia-smi timestamps without a zone, read as local time",
                       "Give the node's offset from UTC with --gpu-utc-offset when the message "
                       "says the guess is unsure."},
    DiagnosticCodeInfo{codes::kGpuSourcesMerged, "GpuSourcesMerged", kNote,
                       "Two sources of the same GPUs (the job's files, Azure ML's metric) "
                       "merged: each GPU counted once",
                       "Nothing when it is a note. When it warns that a node was set aside, "
                       "name each node's folder by the metric's NodeId."},
    DiagnosticCodeInfo{codes::kTraceCut, "TraceCut", kWarning,
                       "A PyTorch profiler trace cut short (or its gzip stream): read up to the "
                       "cut",
                       "Nothing, usually: a job killed while the profiler wrote its trace leaves "
                       "one; the steps before the cut are counted."},
    DiagnosticCodeInfo{codes::kTraceRefused, "TraceRefused", kError,
                       "A profiler trace refused where it stops being one: nesting too deep, a "
                       "value too large, more events than the bound, not JSON",
                       "Check the file is a trace torch.profiler wrote; the message names the "
                       "byte."},
    DiagnosticCodeInfo{codes::kTraceEvent, "TraceEvent", kWarning,
                       "Profiler trace events skipped: a time out of range, or more spans than "
                       "kept",
                       "Nothing, usually; the message names the first event's byte."},
    DiagnosticCodeInfo{codes::kTraceClock, "TraceClock", kNote,
                       "A profiler trace placed on the wall clock approximately (the legacy "
                       "form's file-name stamp) or not at all",
                       "Profile with a Kineto build (its traces carry the epoch time) for exact "
                       "placement."},
    // --- saved facts and reports ---
    DiagnosticCodeInfo{codes::kFactsFileInvalid, "FactsFileInvalid", kError,
                       "A facts file is unreadable or not valid",
                       "Give a file written by `probe`, `analyze` or `facts` with --json; the "
                       "message names the field."},
    DiagnosticCodeInfo{codes::kFactsSchemaVersion, "FactsSchemaVersion", kWarning,
                       "A facts file of another schema version; read anyway",
                       "Write the facts again with this build when figures look wrong."},
    DiagnosticCodeInfo{codes::kReportInvalid, "ReportInvalid", kError,
                       "A field of a saved report is missing or not valid",
                       "Give a report saved with `-o FILE.json` by feedcheck; the message names "
                       "the field."},
    DiagnosticCodeInfo{codes::kReportUnreadable, "ReportUnreadable", kError,
                       "A saved report file could not be read",
                       "Check the path and that the "
                       "file is JSON."},
    // --- knowledge base ---
    DiagnosticCodeInfo{codes::kKbUnreadable, "KbUnreadable", kError,
                       "A knowledge-base file is missing or unreadable",
                       "Check the --kb path; for the built-in data set FEEDCHECK_HOME or "
                       "reinstall."},
    DiagnosticCodeInfo{codes::kKbSyntax, "KbSyntax", kError,
                       "A knowledge-base file is not valid YAML",
                       "Fix the YAML at the line shown."},
    DiagnosticCodeInfo{codes::kKbMissingField, "KbMissingField", kError,
                       "A knowledge-base row lacks a required field; the row is skipped",
                       "Add the field the message names (the built-in rows in data/ show them)."},
    DiagnosticCodeInfo{codes::kKbBadValue, "KbBadValue", kError,
                       "A knowledge-base value is not a number or has the wrong unit",
                       "Write the value with its unit as the message says (\"100 Gbit/s\")."},
    DiagnosticCodeInfo{codes::kKbUnknownKey, "KbUnknownKey", kWarning,
                       "A knowledge-base key the loader does not know; it is ignored",
                       "Rename it to the key it means (the message suggests one)."},
    DiagnosticCodeInfo{codes::kKbDuplicate, "KbDuplicate", kWarning,
                       "The same row name twice in one file; the later row wins",
                       "Remove one of the two rows."},
    DiagnosticCodeInfo{codes::kKbMissingRow, "KbMissingRow", kWarning,
                       "A storage target the calculators need is absent; built-in figures used",
                       "Restore the row in the data set, or add it with --kb FILE."},
    DiagnosticCodeInfo{codes::kKbShape, "KbShape", kError,
                       "A knowledge-base file has the wrong structure",
                       "Write a map of `vm_sizes`, `storage_targets` and `listed_regions`, each "
                       "a list of rows."},
    // --- lint (the SARIF rule list: names, summaries and help are published, keep them) ---
    DiagnosticCodeInfo{
        codes::kLintWrongMode, "InputMode", kWarning,
        "An input's mode differs from the one the advice recommends",
        "Change the input's mode: to the one the rule names (download when the data fits the "
        "node's disk and is read more than once, ro_mount otherwise), as the guide's \"Modes\" "
        "and \"Download\" sections describe."},
    DiagnosticCodeInfo{codes::kLintMissingEnv, "MissingSetting", kWarning,
                       "A recommended data-runtime setting is not set",
                       "Add the environment variable under environment_variables: with the value "
                       "the rule gives (the guide's \"Available mount settings\" and its "
                       "recipes)."},
    DiagnosticCodeInfo{codes::kLintContradictingEnv, "ContradictingSetting", kWarning,
                       "A data-runtime setting differs from the recommended value",
                       "Set the environment variable to the value the rule gives, or remove it "
                       "for the runtime's default."},
    DiagnosticCodeInfo{codes::kLintEgress, "NodesBeyondAccount", kWarning,
                       "More nodes than one storage account feeds at full NIC rate",
                       "Replicate or stripe the data across the storage accounts the plan names, "
                       "or ask for a higher account limit (the guide's \"Storage load\" and "
                       "\"Scaling across multiple storage accounts\")."},
    DiagnosticCodeInfo{codes::kLintOther, "Finding", kWarning,
                       "A finding of the rules about this job",
                       "Follow the change the finding gives; feedcheck's docs/rules.md lists "
                       "every rule."},
    DiagnosticCodeInfo{codes::kLintNoEffect, "SettingWithoutEffect", kWarning,
                       "A setting for another input mode, which does nothing here",
                       "Remove the setting, or change the mode it is meant for (DATASET_MOUNT_* "
                       "act on mounts, including rw_mount outputs; RSLEX_DOWNLOADER_THREADS on "
                       "downloads)."},
    DiagnosticCodeInfo{
        codes::kLintUnknownSetting, "UnknownSetting", kWarning,
        "A data-runtime setting name the guide does not document: the runtime ignores it",
        "Rename it to the documented setting it most likely means (\"Available download "
        "settings\", \"Available mount settings\")."},
    DiagnosticCodeInfo{codes::kLintBadValue, "SettingValue", kWarning,
                       "A setting's value is outside what the guide allows",
                       "Give a value of the documented type and range, or remove it for the "
                       "default."},
    DiagnosticCodeInfo{codes::kLintUnknownKey, "UnknownKey", kWarning,
                       "A job key that is a schema key misspelt",
                       "Rename the key to the schema key it most likely means (`path:` for "
                       "`paths:`): Azure ML refuses the job, or what the key sets is lost."},
    DiagnosticCodeInfo{
        codes::kLintNodeSize, "NodeSizeUnknown", kNote,
        "No VM size: the checks that need the node's NIC, disk and cores were not run",
        "Give the compute cluster's VM size with --sku, or add resources.instance_type to the "
        "job."},
    DiagnosticCodeInfo{codes::kLintDirect, "DirectRead", kNote,
                       "A data input in mode direct: the job's own code reads storage, outside "
                       "the data runtime",
                       "Keep direct for Spark or a loader that reads URIs; for training data read "
                       "as files, mount (ro_mount) or download it through the data runtime."},
    DiagnosticCodeInfo{
        codes::kLintSecret, "CredentialInJobFile", kWarning,
        "A credential (account key, SAS token, secret) written into the job file",
        "Remove it from the job file and rotate it; read it in the job from Azure Key Vault, or "
        "give the compute a managed identity with a storage data role. Source: \"Use "
        "authentication credential secrets in Azure Machine Learning jobs\", "
        "https://learn.microsoft.com/azure/machine-learning/how-to-use-secrets-in-runs"},
    // --- multi-node probes ---
    DiagnosticCodeInfo{codes::kRankNotStarted, "RankNotStarted", kError,
                       "A rank could not start (bad flag, no namespace, no credential); every "
                       "rank stops",
                       "Fix what the message names on that rank's node, then run again."},
    DiagnosticCodeInfo{codes::kRankReportUnreadable, "RankReportUnreadable", kError,
                       "A rank's report did not arrive readable on rank 0; it is left out",
                       "Look at that rank's own output; the merged figures lack its node."},
    DiagnosticCodeInfo{codes::kRankProbeStatus, "RankProbeStatus", kWarning,
                       "A rank's probe did not end ok (a warning when partial, an error when "
                       "failed)",
                       "Read the rank's message: the storage or the network of that node."},
    // --- probes ---
    DiagnosticCodeInfo{codes::kStagesSkippedOnPath, "StagesSkippedOnPath", kNote,
                       "A local path target: the storage-protocol stages are not run",
                       "Give the storage URL to run latency and throughput too."},
    DiagnosticCodeInfo{codes::kListingIncomplete, "ListingIncomplete", kWarning,
                       "The listing stopped early (budget, page limit, Ctrl-C)",
                       "Raise the limit the message names (--max-pages, the time or byte budget) "
                       "for a complete count."},
    DiagnosticCodeInfo{codes::kEntriesUnreadable, "EntriesUnreadable", kWarning,
                       "Entries of a local listing could not be read or stat'ed",
                       "Check the permissions under the path; the figures leave them out."},
    DiagnosticCodeInfo{codes::kDiskDeviceNote, "DiskDeviceNote", kNote,
                       "What the disk probe learnt about the device (RAID, cache, ephemeral)",
                       "Nothing: context for the figures."},
    DiagnosticCodeInfo{codes::kDiskDeviceUnknown, "DiskDeviceUnknown", kWarning,
                       "The block device under the path could not be identified",
                       "Nothing for the figures; the device's kind is left out of the report."},
    DiagnosticCodeInfo{codes::kDiskWriteNote, "DiskWriteNote", kNote,
                       "How the disk was written (page cache not bypassed, O_DIRECT refused)",
                       "Read write figures as the note says: through the page cache they can "
                       "exceed the disk."},
    DiagnosticCodeInfo{codes::kNicNoLinkSpeed, "NicNoLinkSpeed", kNote,
                       "The NIC reports no link speed (a virtual NIC)",
                       "Nothing: the VM size's bandwidth is used instead."},
    DiagnosticCodeInfo{codes::kNicNotAccelerated, "NicNotAccelerated", kWarning,
                       "A synthetic NIC without an accelerated-networking VF",
                       "Enable accelerated networking on the VM or the cluster's network "
                       "settings."},
    DiagnosticCodeInfo{codes::kNicBelowVmSize, "NicBelowVmSize", kWarning,
                       "The link is slower than the VM size's bandwidth",
                       "Check the VM size given (--sku) and the NIC the route uses."},
    DiagnosticCodeInfo{codes::kSmallFilesNoFit, "SmallFilesNoFit", kWarning,
                       "Read times did not grow with object size: no overhead/bandwidth fit",
                       "Run with larger sizes or more objects per size; the per-size figures "
                       "still stand."},
    DiagnosticCodeInfo{codes::kSmallFilesSizePlan, "SmallFilesSizePlan", kNote,
                       "How one object size was read (whole objects or ranged reads, how many)",
                       "Nothing: context for the figures."},
    // --- rules: reading ---
    DiagnosticCodeInfo{codes::kYamlSyntax, "YamlSyntax", kError,
                       "A rules or profile file is not valid YAML (or nests too deep)",
                       "Fix the YAML at the line "
                       "shown."},
    DiagnosticCodeInfo{codes::kRulesNotAList, "RulesNotAList", kError,
                       "A rules file that is not a YAML list of rules",
                       "Write the file as a list: each rule an item starting with `- id:`."},
    DiagnosticCodeInfo{codes::kRuleNotAMap, "RuleNotAMap", kError, "A rule that is not a mapping",
                       "Give each rule id, title, severity, when, say and source."},
    DiagnosticCodeInfo{codes::kRuleMissingField, "RuleMissingField", kError,
                       "A rule lacks a required field", "Add the field the message names."},
    DiagnosticCodeInfo{codes::kRuleUnknownField, "RuleUnknownField", kWarning,
                       "A rule field the engine does not know; it is ignored",
                       "Rename it to the field it means (docs/rules.md lists them), or remove "
                       "it."},
    DiagnosticCodeInfo{codes::kBadSeverity, "BadSeverity", kError,
                       "A rule's severity is not critical, warning or info",
                       "Use one of critical, warning, info."},
    DiagnosticCodeInfo{codes::kDuplicateRuleId, "DuplicateRuleId", kError,
                       "Two rules with the same id in one file", "Give one of them another id."},
    DiagnosticCodeInfo{codes::kWrongFieldType, "WrongFieldType", kError,
                       "A rule field of the wrong type (a list where text is expected, ...)",
                       "Write the field as the message says."},
    DiagnosticCodeInfo{
        codes::kRulesUnreadable, "RulesUnreadable", kError,
        "A rules file or profile could not be read (missing, not a regular file, over 16 MiB)",
        "Check the path and its permissions."},
    DiagnosticCodeInfo{codes::kRuleOverride, "RuleOverride", kWarning,
                       "A rule replaces a rule of the same id from an earlier file",
                       "Nothing when meant (a local rule overriding a built-in); else rename "
                       "it."},
    DiagnosticCodeInfo{codes::kDuplicateKey, "DuplicateKey", kError,
                       "A key given twice in one YAML mapping",
                       "Keep one of the two keys: "
                       "YAML keeps only the last."},
    // --- rules: conditions ---
    DiagnosticCodeInfo{codes::kConditionSyntax, "ConditionSyntax", kError,
                       "A condition that does not parse", "Fix the expression at the caret."},
    DiagnosticCodeInfo{codes::kConditionTooDeep, "ConditionTooDeep", kError,
                       "A condition nested deeper than 64 levels",
                       "Split the expression or flatten the nesting."},
    DiagnosticCodeInfo{codes::kUnknownFact, "UnknownFact", kError,
                       "A condition names a fact key that does not exist",
                       "Use a key from docs/facts.md (the message suggests the nearest)."},
    DiagnosticCodeInfo{codes::kUnitMismatch, "UnitMismatch", kError,
                       "A comparison or sum of values in different units",
                       "Compare like with like: write the literal in the fact's unit "
                       "(\"10 Gbit/s\")."},
    DiagnosticCodeInfo{
        codes::kTypeMismatch, "TypeMismatch", kError,
        "A value of the wrong type (text where a number is needed, a condition not true/false)",
        "Write the condition so it yields true/false from values of one type."},
    DiagnosticCodeInfo{codes::kBadUnit, "BadUnit", kError,
                       "A number with a unit feedcheck does not know",
                       "Use a unit listed in docs/rules.md (GiB, Gbit/s, ms, ...)."},
    DiagnosticCodeInfo{
        codes::kBadCall, "BadCall", kError,
        "A bad function call (unknown, wrong number of arguments), a bad excess or critical_above",
        "Use a function the message lists, with its arguments."},
    DiagnosticCodeInfo{codes::kConditionTooLong, "ConditionTooLong", kError,
                       "A condition longer than 4,096 characters", "Split it over several rules."},
    // --- rules: templates, settings and config ---
    DiagnosticCodeInfo{codes::kBadTemplate, "BadTemplate", kError,
                       "A `say:` template with an unclosed, stray or empty brace",
                       "Close the placeholder, or write `{{` / `}}` for a literal brace."},
    DiagnosticCodeInfo{codes::kBadEnvName, "BadEnvName", kError,
                       "An env: name that is not an environment variable name",
                       "Use A-Z, 0-9 and _ only."},
    DiagnosticCodeInfo{codes::kBadConfigKind, "BadConfigKind", kError,
                       "A config: kind feedcheck does not write", "Use blobfuse2."},
    DiagnosticCodeInfo{codes::kBadMode, "BadMode", kError,
                       "A mode: that is not download, ro_mount or direct",
                       "Use one of download, ro_mount, direct."},
    DiagnosticCodeInfo{codes::kBadClass, "BadClass", kError, "A bottleneck class: not known",
                       "Use one of the classes the message lists."},
    DiagnosticCodeInfo{codes::kBadBasis, "BadBasis", kError,
                       "A basis: that is not observed or capacity", "Use observed or capacity."},
    DiagnosticCodeInfo{codes::kUndocumentedSetting, "UndocumentedSetting", kWarning,
                       "An env: name with the data runtime's prefix the guide does not document",
                       "Rename it to the documented setting it means; the runtime ignores "
                       "unknown names."},
    // --- profiles and job files ---
    DiagnosticCodeInfo{codes::kProfileField, "ProfileField", kError,
                       "A profile that is not a mapping, or a field it does not know",
                       "Use the fields the message lists."},
    DiagnosticCodeInfo{codes::kProfileValue, "ProfileValue", kError,
                       "A profile value that is not usable (wrong unit, a list, out of range)",
                       "Write the value as the message says."},
    DiagnosticCodeInfo{codes::kJobFile, "JobFile", kError,
                       "An Azure ML job file that cannot be read or understood",
                       "Give the job YAML `az ml job create --file` takes; the message names "
                       "the line."},
    DiagnosticCodeInfo{codes::kUnknownVm, "UnknownVm", kError,
                       "A VM size or account kind the knowledge base does not know",
                       "Check the spelling (the message suggests one), declare the node's "
                       "figures in the profile, or add the size with --kb FILE."},
    DiagnosticCodeInfo{codes::kUnknownRegion, "UnknownRegion", kError,
                       "An Azure region the knowledge base does not know",
                       "Check the spelling (the message suggests one), or declare the account's "
                       "limits."},
    // --- workflows ---
    DiagnosticCodeInfo{codes::kBadFlag, "BadFlag", kError, "A flag's value is unusable",
                       "Fix the flag the message names (`feedcheck COMMAND --help`)."},
    DiagnosticCodeInfo{codes::kMissingInput, "MissingInput", kError,
                       "A required input was not given", "Give the input the message names."},
    DiagnosticCodeInfo{codes::kNothingReadable, "NothingReadable", kError,
                       "None of the inputs could be read",
                       "Check the paths; the message says what each was taken for."},
    DiagnosticCodeInfo{codes::kUnreadableResult, "UnreadableResult", kError,
                       "A saved result cannot be read",
                       "Give a file saved with `-o FILE.json` by feedcheck."},
    DiagnosticCodeInfo{codes::kInputErrors, "InputErrors", kError,
                       "The inputs or the rules have errors: no advice given",
                       "Fix the errors reported above it."},
    DiagnosticCodeInfo{codes::kNotRead, "NotRead", kWarning, "One input was skipped",
                       "Read the reason; the rest of the inputs were used."},
    DiagnosticCodeInfo{codes::kJobNotDiagnosed, "JobNotDiagnosed", kWarning,
                       "A job folder of a fleet could not be diagnosed",
                       "Run feedcheck postmortem on that folder alone: it says what is missing; "
                       "the rest of the fleet is reported."},
    DiagnosticCodeInfo{codes::kNotAJob, "NotAJob", kNote, "A subfolder of a fleet holds no job",
                       "Nothing to do unless it is a job: then check its layout (logs under "
                       "system_logs/ or a data-capability.log)."},
    DiagnosticCodeInfo{codes::kJobWarnings, "JobWarnings", kNote,
                       "Some jobs of a fleet had warnings of their own",
                       "Run feedcheck postmortem on such a job with -v to list them."},
    DiagnosticCodeInfo{codes::kNoPublicPrice, "NoPublicPrice", kNote,
                       "GPU time could not be priced: no public price is known for the VM size",
                       "Give --gpu-hour-price USD (your own price per GPU-hour), or a --kb file "
                       "with price_usd_per_hour for the size."},
    DiagnosticCodeInfo{codes::kInsideAJob, "InsideAJob", kNote,
                       "The folder given is inside a job's folder: the whole job was read",
                       "Nothing to do: the job's GPU samples and storage metrics beside its logs "
                       "were read too. Give the job's folder to say it directly."},
    DiagnosticCodeInfo{codes::kAzMissing, "AzMissing", kError,
                       "The Azure CLI (az) is not on PATH: nothing can be fetched",
                       "Install the Azure CLI with its ml extension (az extension add -n ml), "
                       "or download the job's logs yourself and run feedcheck postmortem DIR."},
    DiagnosticCodeInfo{codes::kAzNotLoggedIn, "AzNotLoggedIn", kError,
                       "An az command failed: the Azure CLI is not logged in",
                       "Run 'az login' (or az login --identity on a VM with a managed identity) "
                       "and run the fetch again."},
    DiagnosticCodeInfo{codes::kAzForbidden, "AzForbidden", kError,
                       "An az command was refused (AuthorizationFailed): no permission",
                       "Ask for a role that can read the workspace's jobs and datastores "
                       "(AzureML Data Scientist) and the storage account's metrics (Monitoring "
                       "Reader), or check --subscription."},
    DiagnosticCodeInfo{codes::kAzNotFound, "AzNotFound", kError,
                       "An az command found no such resource (ResourceNotFound)",
                       "Check the job name, --workspace, --resource-group and --subscription "
                       "(az ml job list -w WS -g RG lists the jobs)."},
    DiagnosticCodeInfo{codes::kAzFailed, "AzFailed", kError,
                       "An az command failed for another reason",
                       "Read az's message (quoted, secrets removed) and run the command shown to "
                       "see it whole."},
    DiagnosticCodeInfo{codes::kAzBadOutput, "AzBadOutput", kError,
                       "An az command's output is not the JSON expected",
                       "Update the Azure CLI and its ml extension; the message names the field."},
    DiagnosticCodeInfo{codes::kAzTimeout, "AzTimeout", kError,
                       "An az command did not finish within the time limit and was stopped",
                       "Run it again, or raise --az-timeout."},
    DiagnosticCodeInfo{codes::kAzAccountElsewhere, "AzAccountElsewhere", kWarning,
                       "A storage account is not in the subscription az searched",
                       "Give the account's subscription with --storage-subscription; the job's "
                       "logs are fetched, that account's metrics are not."},
    DiagnosticCodeInfo{codes::kAzNoMlExtension, "AzNoMlExtension", kError,
                       "The Azure CLI has no 'ml' extension",
                       "Run `az extension add -n ml`, then the fetch again."},
    DiagnosticCodeInfo{codes::kAzSeriesCapped, "AzSeriesCapped", kWarning,
                       "A metrics answer holds as many series as --top asked for: some may be "
                       "missing",
                       "Look at the series named; a larger --top (the message gives it) or a "
                       "narrower filter brings the rest."},
    // --- probe workflows ---
    DiagnosticCodeInfo{codes::kProbeBadFlag, "ProbeBadFlag", kError,
                       "A probe flag's value is unusable (exit 2)",
                       "Fix the flag the message names."},
    DiagnosticCodeInfo{codes::kBadTarget, "BadTarget", kError,
                       "The target cannot be used as given (a path where a URL is needed, a SAS "
                       "in argv, a credential over plain http; exit 2)",
                       "Give the target as the message says; pass a SAS through "
                       "AZURE_STORAGE_SAS_TOKEN, not the URL."},
    DiagnosticCodeInfo{codes::kCredential, "Credential", kError,
                       "The credential could not be resolved (exit 3)",
                       "Check the key file or the identity endpoint the message names."},
    DiagnosticCodeInfo{codes::kWeakened, "Weakened", kWarning,
                       "A safety setting that weakens the run (--insecure)",
                       "Use it against test servers only."},
    DiagnosticCodeInfo{codes::kProbeStatus, "ProbeStatus", kWarning,
                       "The probe ended other than ok (a warning when partial, an error when "
                       "failed or unreachable)",
                       "Read the status and the reason: network, access or the storage."},
    DiagnosticCodeInfo{codes::kAccessDenied, "AccessDenied", kNote,
                       "The storage refused an anonymous request",
                       "Set what the message names: a SAS token, an identity or a data role."},
    DiagnosticCodeInfo{codes::kTestDataLeft, "TestDataLeft", kError,
                       "Test data the probe wrote could not all be removed",
                       "Run `feedcheck cleanup` with the same target, or delete the names "
                       "listed."},
};

constexpr bool Ordered() {
  for (size_t i = 1; i < kCodes.size(); ++i)
    if (!(std::string_view(kCodes[i - 1].code) < std::string_view(kCodes[i].code))) return false;
  return true;
}
static_assert(Ordered(), "the registry lists each code once, in code order");

}  // namespace

std::span<const DiagnosticCodeInfo> DiagnosticCodes() { return kCodes; }

std::span<const DiagnosticFamily> DiagnosticFamilies() { return kFamilies; }

const DiagnosticCodeInfo* FindDiagnosticCode(std::string_view code) {
  auto it = std::lower_bound(kCodes.begin(), kCodes.end(), code,
                             [](const DiagnosticCodeInfo& c, std::string_view want) {
                               return std::string_view(c.code) < want;
                             });
  if (it == kCodes.end() || std::string_view(it->code) != code) return nullptr;
  return &*it;
}

}  // namespace feedcheck
