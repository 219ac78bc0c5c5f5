#include "analyzers/data_capability_shapes.h"

#include <array>

namespace feedcheck::analyzers {

namespace {

constexpr std::string_view kActivitySource =
    "Microsoft Learn, \"Access data in a job\", section \"Using logs to diagnose issues\", "
    "https://learn.microsoft.com/azure/machine-learning/how-to-read-write-data-v2; the words: "
    "Azure/azure-sdk-for-python: sdk/ml/azure-ai-ml/azure/ai/ml/_telemetry/activity.py";
constexpr std::string_view kStreamErrorSource =
    "GitHub, Azure/azure-sdk-for-python, \"Error Message: The requested stream was not found. "
    "Please make sure the request uri is correct. SDKv1 and SDKv2\" (the errors quoted), "
    "https://github.com/Azure/azure-sdk-for-python/issues/35949";

constexpr std::array<DataCapabilityShapeInfo, kDataCapabilityShapeCount - 1> kShapes = {{
    {DataCapabilityShape::kActivityStarted, "activity-started",
     "INFO 2023-05-18 17:14:47,790 sdk_logger.py:44 [28] - ActivityStarted, download",
     kActivitySource},
    {DataCapabilityShape::kActivityCompleted, "activity-completed",
     "INFO 2023-05-18 17:14:50,295 sdk_logger.py:44 [28] - ActivityCompleted: "
     "Activity=download, HowEnded=Success, Duration=2504.39 [ms]",
     kActivitySource},
    {DataCapabilityShape::kFailedToMount, "failed-to-mount",
     "WARN <time> Failed to mount URI azureml://subscriptions/.../datastores/<name>/paths/... due "
     "to exception of type ExecutionError",
     "rubyrayjuntos/azure-aiml-ops: "
     "bugs/2026-08-16-aml-data-identity-01-rslex-requires-sas-for-uri_file.md (\"Failed to mount "
     "URI ... at mount point\", the job's error)"},
    {DataCapabilityShape::kErrorCode, "error-code",
     "ERROR <time> data_capability.py:<line> [28] - Error Code: "
     "ScriptExecution.StreamAccess.NotFound",
     kStreamErrorSource},
    {DataCapabilityShape::kNativeError, "native-error",
     "ERROR <time> data_capability.py:<line> [28] - Native Error: error in streaming from input "
     "data sources (a traceback's lines follow, StreamError(NotFound) => stream not found)",
     kStreamErrorSource},
}};

}  // namespace

std::span<const DataCapabilityShapeInfo> DataCapabilityShapes() { return kShapes; }

DataCapabilityShape ClassifyDataCapabilityMessage(std::string_view msg) {
  if (msg.find("ActivityStarted") != std::string_view::npos)
    return DataCapabilityShape::kActivityStarted;
  if (msg.find("ActivityCompleted") != std::string_view::npos)
    return DataCapabilityShape::kActivityCompleted;
  if (msg.find("Failed to mount") != std::string_view::npos)
    return DataCapabilityShape::kFailedToMount;
  if (msg.find("Error Code: ") != std::string_view::npos) return DataCapabilityShape::kErrorCode;
  if (msg.find("Native Error: ") != std::string_view::npos)
    return DataCapabilityShape::kNativeError;
  return DataCapabilityShape::kUnknown;
}

}  // namespace feedcheck::analyzers
