#include "probes/dataset_shape.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>

namespace feedcheck {

void DatasetShape::AddFile(std::string_view name, uint64_t size_bytes) {
  sizes_.push_back(size_bytes);
  // Saturating: sizes are bounded per blob (blob_limits.h), not their sum over millions.
  total_bytes_ = size_bytes > UINT64_MAX - total_bytes_ ? UINT64_MAX : total_bytes_ + size_bytes;
  max_bytes_ = std::max(max_bytes_, size_bytes);
  if (size_bytes < kSmallFileBytes) ++small_;
  // Every ancestor is a directory; stop at the first one already known (its own ancestors are).
  size_t slash = name.rfind('/');
  while (slash != std::string_view::npos && slash > 0) {
    if (!dirs_.emplace(name.substr(0, slash)).second) break;
    slash = name.rfind('/', slash - 1);
  }
}

void DatasetShape::AddDir(std::string_view name) {
  while (!name.empty() && name.back() == '/') name.remove_suffix(1);
  if (name.empty()) return;
  dirs_.emplace(name);
}

double DatasetShape::mean_bytes() const {
  return sizes_.empty() ? 0
                        : static_cast<double>(total_bytes_) / static_cast<double>(sizes_.size());
}

uint64_t DatasetShape::median_bytes() const {
  if (sizes_.empty()) return 0;
  std::vector<uint64_t> copy = sizes_;
  auto mid = copy.begin() + static_cast<std::ptrdiff_t>((copy.size() - 1) / 2);
  std::nth_element(copy.begin(), mid, copy.end());
  return *mid;
}

double DatasetShape::small_fraction() const {
  return sizes_.empty() ? 0 : static_cast<double>(small_) / static_cast<double>(sizes_.size());
}

Series DatasetShape::SizeHistogram() const {
  std::map<int, uint64_t> buckets;  // bucket b holds sizes in [2^(b-1), 2^b)
  for (uint64_t s : sizes_) ++buckets[static_cast<int>(std::bit_width(s))];
  Series out;
  out.key = "dataset.size_histogram";
  out.title = "Files by size";
  out.x_label = "file size up to";
  out.x_unit = Unit::kBytes;
  out.y_label = "files";
  out.y_unit = Unit::kCount;
  for (const auto& [b, count] : buckets)
    out.points.push_back({b >= 64 ? 1.8446744073709552e19 : static_cast<double>(1ull << b),
                          static_cast<double>(count)});
  return out;
}

void DatasetShape::AddFacts(const Provenance& provenance, bool complete, FactSet* facts) const {
  if (sizes_.empty()) return;
  Provenance p = provenance;
  if (!complete) p.source += " [partial listing: lower bounds]";
  auto num = [&](const char* key, double v, Unit u) { facts->Set(NumberFact(key, v, u, p)); };
  num("dataset.files", static_cast<double>(files()), Unit::kCount);
  num("dataset.bytes", static_cast<double>(bytes()), Unit::kBytes);
  num("dataset.median_file_bytes", static_cast<double>(median_bytes()), Unit::kBytes);
  num("dataset.mean_file_bytes", mean_bytes(), Unit::kBytes);
  num("dataset.max_file_bytes", static_cast<double>(max_bytes()), Unit::kBytes);
  num("dataset.small_file_fraction", small_fraction(), Unit::kFraction);
  num("dataset.dirs", static_cast<double>(dirs()), Unit::kCount);
  if (dirs() > 0)
    num("dataset.files_per_dir", static_cast<double>(files()) / static_cast<double>(dirs()),
        Unit::kCount);
}

}  // namespace feedcheck
