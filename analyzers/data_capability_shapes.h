// Every message shape of data-capability.log that the analyzers know, with the public source it
// was taken from: the analyzer dispatches on ClassifyDataCapabilityMessage, docs/postmortem.md
// lists the table (a test checks the page against it), and the corpus test fails on a line of
// a shape not in it. Lines that are no logging line (a traceback's continuation) carry no shape.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace feedcheck::analyzers {

enum class DataCapabilityShape : uint8_t {
  kActivityStarted,    ///< "ActivityStarted, download" (or "ActivityStarted: download")
  kActivityCompleted,  ///< "ActivityCompleted: Activity=download, HowEnded=..., Duration=.. [ms]"
  kFailedToMount,      ///< "Failed to mount URI azureml://... due to exception of type ..."
  kErrorCode,          ///< "Error Code: ScriptExecution.StreamAccess.NotFound"
  kNativeError,        ///< "Native Error: error in streaming from input data sources"
  kUnknown,            ///< none of the above: read as opaque
};
inline constexpr size_t kDataCapabilityShapeCount =
    static_cast<size_t>(DataCapabilityShape::kUnknown) + 1;

struct DataCapabilityShapeInfo {
  DataCapabilityShape shape;
  std::string_view name;
  std::string_view example;
  std::string_view source;
};

/// The known shapes (kUnknown excluded), in enum order.
std::span<const DataCapabilityShapeInfo> DataCapabilityShapes();

/// The shape of a logging line's message (the text after " - ").
DataCapabilityShape ClassifyDataCapabilityMessage(std::string_view message);

}  // namespace feedcheck::analyzers
