// The largest sizes Azure Blob Storage allows, so a size a server reports can be checked before
// any arithmetic uses it: a hostile or broken answer of 2^64-1 bytes must not overflow block
// counts or divide by zero.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace feedcheck {

/// A block blob holds at most 50,000 blocks of 4,000 MiB: about 190.7 TiB ("Scalability and
/// performance targets for Blob storage", https://learn.microsoft.com/azure/storage/blobs/
/// scalability-targets). No object this tool reads can be larger.
inline constexpr uint64_t kMaxBlobBytes = 50000ull * 4000ull * 1024ull * 1024ull;

/// Longest blob name the service accepts, in characters ("Naming and Referencing Containers,
/// Blobs, and Metadata", https://learn.microsoft.com/rest/api/storageservices/
/// naming-and-referencing-containers--blobs--and-metadata).
inline constexpr size_t kMaxBlobNameChars = 1024;

inline bool IsPlausibleBlobSize(uint64_t size_bytes) { return size_bytes <= kMaxBlobBytes; }

/// "Content-Length 18446744073709551615 is larger than any blob (190.7 TiB)" for messages.
inline std::string ImplausibleSizeMessage(std::string_view size_text) {
  return "Content-Length " + std::string(size_text) +
         " is larger than any Azure blob can be (50,000 blocks of 4,000 MiB, 190.7 TiB)";
}
inline std::string ImplausibleSizeMessage(uint64_t size_bytes) {
  return ImplausibleSizeMessage(std::to_string(size_bytes));
}

}  // namespace feedcheck
