// The shape of a dataset, collected while listing it: file count, bytes, size distribution and
// directories. Memory is bounded by the number of entries the caller lets it see.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/evidence.h"

namespace feedcheck {

class DatasetShape {
 public:
  /// Files smaller than this count as "small" (request overhead dominates below it).
  static constexpr uint64_t kSmallFileBytes = 4ull << 20;

  /// A file, named relative to the listed root ("a/b/c.jpg"); its ancestors count as dirs.
  void AddFile(std::string_view name, uint64_t size_bytes);
  /// A directory met as such (BlobPrefix, ADLS directory, readdir entry).
  void AddDir(std::string_view name);

  uint64_t files() const { return sizes_.size(); }
  uint64_t bytes() const { return total_bytes_; }
  uint64_t dirs() const { return dirs_.size(); }
  uint64_t max_bytes() const { return max_bytes_; }
  double mean_bytes() const;
  /// Median file size (lower median for even counts); 0 when empty.
  uint64_t median_bytes() const;
  double small_fraction() const;
  /// Count of files per power-of-two size bucket: x = bucket upper bound (bytes), y = files.
  Series SizeHistogram() const;

  /// Writes dataset.* facts (nothing when no file was seen). `complete` false marks them as a
  /// lower bound from a partial listing in the provenance.
  void AddFacts(const Provenance& provenance, bool complete, FactSet* facts) const;

 private:
  std::vector<uint64_t> sizes_;
  std::unordered_set<std::string> dirs_;
  uint64_t total_bytes_ = 0;
  uint64_t max_bytes_ = 0;
  uint64_t small_ = 0;
};

}  // namespace feedcheck
