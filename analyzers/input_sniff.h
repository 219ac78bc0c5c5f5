// What ordering and setting aside need to know of an input file, read from its head (and, for
// nvidia-smi, its tail) through the file's one open: the first timestamp of a log, the storage
// account a metrics answer is about, the time span of GPU samples.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "analyzers/input_file.h"

namespace feedcheck::analyzers {

/// The timestamps are looked for in the first 16 KiB of the head, a cut last line not trusted.
inline constexpr size_t kTimestampHeadBytes = 16 * 1024;

/// The first timestamp of a tracing log (rslex.log).
std::optional<double> FirstTimestampIn(std::string_view head);
/// The first timestamp of a Python-logging file (data-capability.log).
std::optional<double> FirstPythonLogTimestampIn(std::string_view head);
/// The storage account an Azure Monitor response is about, from its resource ids
/// (".../storageAccounts/<name>/blobServices/default/..."), lower case; "" for other resources
/// (a workspace's GPU metric), a batch answer, or none found.
std::string MetricsAccountIn(std::string_view head);
/// First and last timestamp of an nvidia-smi file's readable samples, from `head` (its first
/// 64 KiB) and its last 64 KiB: samples are written in time order, so a large file is not read
/// twice.
std::optional<std::pair<double, double>> SmiTimeSpan(const InputFile& file,
                                                     const std::string& head);

}  // namespace feedcheck::analyzers
