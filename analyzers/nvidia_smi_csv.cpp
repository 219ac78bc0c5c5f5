#include "analyzers/nvidia_smi_csv.h"

#include <fmt/format.h>

#include "analyzers/text_util.h"
#include "analyzers/timestamp.h"

namespace feedcheck::analyzers {

std::optional<double> ParseSmiValue(std::string_view cell, bool* ok) {
  cell = Trim(cell);
  *ok = true;
  if (cell.empty() || cell == "N/A" || cell == "[N/A]" || cell == "[Not Supported]" ||
      cell == "Not Supported" || cell == "[Unknown Error]")
    return std::nullopt;
  size_t used = 0;
  auto v = ParseDoublePrefix(cell, &used);
  if (!v) {
    *ok = false;
    return std::nullopt;
  }
  std::string_view unit = Trim(cell.substr(used));
  if (!unit.empty() && unit != "%" && unit != "MiB" && unit != "MB" && unit != "W" &&
      unit != "MHz") {
    *ok = false;
    return std::nullopt;
  }
  return v;
}

void NvidiaSmiCsvParser::Reset() {
  has_header_ = false;
  inferred_util_ = -1;
  dmon_ = false;
  col_date_ = -1;
  header_columns_ = 0;
  col_time_ = col_index_ = col_util_ = col_uuid_ = col_bus_ = -1;
}

bool NvidiaSmiCsvParser::ReadHeader(const std::vector<std::string_view>& fields) {
  int time = -1, index = -1, util = -1, uuid = -1, bus = -1;
  for (size_t i = 0; i < fields.size(); ++i) {
    std::string_view name = Trim(fields[i]);
    size_t bracket = name.find(" [");
    if (bracket != std::string_view::npos) name = name.substr(0, bracket);
    int idx = static_cast<int>(i);
    if (name == "timestamp")
      time = idx;
    else if (name == "index")
      index = idx;
    else if (name == "utilization.gpu")
      util = idx;
    else if (name == "uuid")
      uuid = idx;
    else if (name == "pci.bus_id")
      bus = idx;
  }
  if (util < 0) return false;
  has_header_ = true;
  dmon_ = false;
  col_date_ = -1;
  header_columns_ = fields.size();
  col_time_ = time;
  col_index_ = index;
  col_util_ = util;
  col_uuid_ = uuid;
  col_bus_ = bus;
  return true;
}

int NvidiaSmiCsvParser::UtilColumnAfter(size_t first) {
  for (size_t i = first; i < fields_.size(); ++i)
    if (EndsWith(Trim(fields_[i]), "%")) return inferred_util_ = static_cast<int>(i);
  // Without units: the first value after the index, a plain number or a missing marker (an
  // "[N/A]" utilisation is still its column); a GPU's name is text, "3 MiB" another unit's.
  for (size_t i = first; i < fields_.size(); ++i) {
    const std::string_view cell = Trim(fields_[i]);
    bool ok = true;
    const auto v = ParseSmiValue(cell, &ok);
    const bool plain = v && cell.find_first_not_of("0123456789.") == std::string_view::npos;
    if (ok && (plain || !v)) return inferred_util_ = static_cast<int>(i);
  }
  return static_cast<int>(first);  // nothing shows it: the documented layout, not kept
}

namespace {
std::vector<std::string_view> SplitBlank(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}
}  // namespace

bool NvidiaSmiCsvParser::ReadDmonHeader(std::string_view line) {
  line.remove_prefix(1);  // the '#'
  const auto names = SplitBlank(line);
  int date = -1, time = -1, gpu = -1, sm = -1;
  for (size_t i = 0; i < names.size(); ++i) {
    const int idx = static_cast<int>(i);
    if (names[i] == "Date") date = idx;
    if (names[i] == "Time") time = idx;
    if (names[i] == "gpu") gpu = idx;
    if (names[i] == "sm") sm = idx;
  }
  if (gpu < 0 || sm < 0) return false;
  dmon_ = true;
  has_header_ = true;
  header_columns_ = names.size();
  col_date_ = date, col_time_ = time, col_index_ = gpu, col_util_ = sm;
  col_uuid_ = col_bus_ = -1;
  return true;
}

NvidiaSmiCsvParser::Result NvidiaSmiCsvParser::ParseDmonRow(std::string_view line,
                                                            GpuSample* sample, std::string* error) {
  fields_ = SplitBlank(line);
  if (fields_.size() < header_columns_) {
    *error = fmt::format("{} columns, the dmon header has {}: a cut row", fields_.size(),
                         header_columns_);
    return Result::kMalformed;
  }
  *sample = GpuSample{};
  if (col_date_ >= 0 && col_time_ >= 0) {
    std::string_view date = fields_[col_date_];
    if (date.size() == 8 && date.find_first_not_of("0123456789") == std::string_view::npos)
      time_scratch_ = fmt::format("{}-{}-{} {}", date.substr(0, 4), date.substr(4, 2),
                                  date.substr(6, 2), fields_[col_time_]);
    else
      time_scratch_ = fmt::format("{} {}", date, fields_[col_time_]);
    sample->epoch_s = ParseTimestamp(time_scratch_);
    if (!sample->epoch_s) {
      *error = "dmon date and time are not 'YYYYMMDD HH:MM:SS'";
      return Result::kMalformed;
    }
  }
  sample->gpu = fields_[col_index_];
  if (sample->gpu.size() > 64) {
    *error = "overlong GPU id";
    return Result::kMalformed;
  }
  const std::string_view util = fields_[col_util_];
  if (util == "-") return Result::kSample;  // no value this interval
  bool ok = true;
  sample->util_percent = ParseSmiValue(util, &ok);
  if (!ok || (sample->util_percent && (*sample->util_percent < 0 || *sample->util_percent > 100))) {
    *error = "dmon sm is not a percentage";
    return Result::kMalformed;
  }
  return Result::kSample;
}

NvidiaSmiCsvParser::Result NvidiaSmiCsvParser::Parse(std::string_view line, GpuSample* sample,
                                                     std::string* error) {
  const std::string_view trimmed = Trim(line);
  if (trimmed.empty()) return Result::kSkip;
  // nvidia-smi dmon's header lines (and its units line, which names no column); no CSV
  // nvidia-smi writes starts with '#'.
  if (trimmed.front() == '#') return ReadDmonHeader(trimmed) ? Result::kHeader : Result::kSkip;
  if (dmon_) return ParseDmonRow(trimmed, sample, error);
  if (!SplitCsvLine(line, &scratch_, &fields_)) {
    *error = "unterminated quote";
    return Result::kMalformed;
  }
  // A header line: names, not values.
  if (line.find("utilization.gpu") != std::string_view::npos) {
    if (ReadHeader(fields_)) return Result::kHeader;
    *error = "header without utilization.gpu";
    return Result::kMalformed;
  }
  if (!has_header_) {
    // No header: infer the documented layouts ('timestamp, index, utilization.gpu' or
    // 'index, utilization.gpu'), with more columns asked for (`--query-gpu=timestamp,index,
    // name,utilization.gpu,memory.used --format=csv,noheader`): utilization.gpu is the first
    // cell after the index in percent ("87 %"), else, without units, the first number there
    // (a GPU's name is no number).
    // nvidia-smi prints one layout: the first row that shows it decides for the rest (a
    // "[N/A]" utilization later does not move the column).
    bool first_is_time = ParseTimestamp(fields_[0]).has_value();
    if (inferred_util_ >= 0 && static_cast<size_t>(inferred_util_) < fields_.size()) {
      col_time_ = first_is_time ? 0 : -1, col_index_ = first_is_time ? 1 : 0;
      col_util_ = inferred_util_;
    } else if (first_is_time && fields_.size() >= 3) {
      col_time_ = 0, col_index_ = 1, col_util_ = UtilColumnAfter(2);
    } else if (!first_is_time && fields_.size() >= 2) {
      col_time_ = -1, col_index_ = 0, col_util_ = UtilColumnAfter(1);
    } else {
      *error = "no header, and not 'timestamp, index, utilization.gpu' or 'index, utilization.gpu'";
      return Result::kMalformed;
    }
  }
  // nvidia-smi prints every column it was asked for: a row short of the header's columns was
  // cut (a node that went away mid-write), and its last value may be cut with it ("9" of "95").
  if (has_header_ && fields_.size() < header_columns_) {
    *error =
        fmt::format("{} columns, the header has {}: a cut row", fields_.size(), header_columns_);
    return Result::kMalformed;
  }
  if (static_cast<size_t>(col_util_) >= fields_.size() ||
      (col_index_ >= 0 && static_cast<size_t>(col_index_) >= fields_.size()) ||
      (col_time_ >= 0 && static_cast<size_t>(col_time_) >= fields_.size())) {
    *error = "fewer columns than the header";
    return Result::kMalformed;
  }
  *sample = GpuSample{};
  if (col_time_ >= 0) {
    sample->epoch_s = ParseTimestamp(fields_[col_time_]);
    if (!sample->epoch_s) {
      *error = "timestamp column is not 'YYYY/MM/DD HH:MM:SS.mmm'";
      return Result::kMalformed;
    }
  }
  int id_col = col_index_ >= 0 ? col_index_ : col_uuid_ >= 0 ? col_uuid_ : col_bus_;
  sample->gpu = id_col >= 0 ? Trim(fields_[id_col]) : std::string_view("0");
  if (sample->gpu.empty() || sample->gpu.size() > 64) {
    *error = "empty or overlong GPU id";
    return Result::kMalformed;
  }
  bool ok = true;
  sample->util_percent = ParseSmiValue(fields_[col_util_], &ok);
  if (!ok || (sample->util_percent && (*sample->util_percent < 0 || *sample->util_percent > 100))) {
    *error = "utilization.gpu is not a percentage";
    return Result::kMalformed;
  }
  return Result::kSample;
}

}  // namespace feedcheck::analyzers
