// `nvidia-smi --query-gpu=... --format=csv[,noheader][,nounits]` (`nvidia-smi --help-query-gpu`;
// NVML nvmlUtilization_t, https://docs.nvidia.com/deploy/nvml-api/structnvmlUtilization__t.html).
// The header names the columns ("utilization.gpu [%]"); values may carry units ("87 %") or not;
// missing values are "N/A", "[N/A]" or "[Not Supported]". Without a header the columns are taken as
// "timestamp, index, utilization.gpu" when the first cell is a timestamp, else
// "index, utilization.gpu" (the queries docs/commands/analyze.md recommends), the utilisation
// then being the first cell after the index in percent (else the first number) when more
// columns were asked for. A header repeated mid-file (several runs appended) switches to the
// new layout.
//
// `nvidia-smi dmon [-s u...] [-o DT]` is read too: its header ("# gpu ... sm ..." or "#Date
// Time gpu ... sm ...", reprinted every screenful, then a "#YYYYMMDD HH:MM:SS Idx ... %" units
// line) names whitespace-separated columns; `sm` is the utilisation nvidia-smi's utilization.gpu
// reports; "-" is no value. Its date (YYYYMMDD) and time, like nvidia-smi's timestamp, carry no
// zone.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace feedcheck::analyzers {

struct GpuSample {
  std::string_view gpu;                ///< index, uuid or bus id as written
  std::optional<double> epoch_s;       ///< absent when the file has no time column
  std::optional<double> util_percent;  ///< absent for N/A
};

class NvidiaSmiCsvParser {
 public:
  enum class Result { kSample, kHeader, kSkip, kMalformed };
  /// Parses one line. kSample fills `sample` (views valid until the next call); kMalformed
  /// sets `error`.
  Result Parse(std::string_view line, GpuSample* sample, std::string* error);
  void Reset();
  bool has_header() const { return has_header_; }

 private:
  bool ReadHeader(const std::vector<std::string_view>& fields);
  /// nvidia-smi dmon: a '#' line naming `gpu` and `sm` sets the columns (true); others not.
  bool ReadDmonHeader(std::string_view line);
  Result ParseDmonRow(std::string_view line, GpuSample* sample, std::string* error);

  /// Without a header: the utilization.gpu column among fields_ from `first` on, kept in
  /// inferred_util_ once a row shows it.
  int UtilColumnAfter(size_t first);
  int inferred_util_ = -1;
  bool dmon_ = false;  // the columns are nvidia-smi dmon's (col_date_ with col_time_)
  int col_date_ = -1;
  std::string time_scratch_;
  bool has_header_ = false;
  size_t header_columns_ = 0;
  int col_time_ = -1, col_index_ = -1, col_util_ = -1, col_uuid_ = -1, col_bus_ = -1;
  std::string scratch_;
  std::vector<std::string_view> fields_;
};

/// "87 %", "87", "N/A", "[N/A]", "[Not Supported]" -> 87 / nullopt. `*ok` false when the
/// text is neither a number nor a known "missing" marker.
std::optional<double> ParseSmiValue(std::string_view cell, bool* ok);

}  // namespace feedcheck::analyzers
