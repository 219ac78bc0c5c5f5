// Parsers for one page of a listing: Azure Blob "List Blobs" XML (EnumerationResults) and ADLS
// Gen2 "List Paths" JSON. The XML parser is a single forward scan with no DOM: a 5,000-entry page
// (~3 MB) parses in a few milliseconds. Malformed or truncated input gives an error naming the
// byte offset; it never crashes or reads out of bounds.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace feedcheck {

struct ListedEntry {
  std::string name;
  uint64_t size_bytes = 0;
  bool is_dir = false;  ///< ADLS directory entry, or an HNS blob with ResourceType directory
};

struct ListPage {
  std::vector<ListedEntry> entries;   ///< blobs (files), in service order
  std::vector<std::string> prefixes;  ///< BlobPrefix names of a delimiter listing
  std::string next_marker;            ///< opaque; empty on the last page
  void Clear() {
    entries.clear();
    prefixes.clear();
    next_marker.clear();
  }
};

/// The most bytes a List Blobs (or List Paths) page of `max_results` entries can take: 64 KiB of
/// envelope plus, per entry, its properties (~840 B) and a name of up to 1,024 characters at up
/// to 5 bytes each (an "&amp;" escape; a UTF-8 character takes at most 4). A page of 5,000
/// entries with the longest names fits; a bigger answer is refused as more than was asked for.
uint64_t ListPageMaxBytes(int max_results);
/// The most entries (1-5000) a page may ask for so that ListPageMaxBytes fits in `bytes`;
/// 0 when not even one fits.
int ListPageEntriesFitting(uint64_t bytes);

/// Parses a List Blobs response body. Entities (&amp; &lt; &#x41; ...) are decoded and
/// <Name Encoded="true"> names are percent-decoded. Returns false with `error` set
/// ("byte 1234: expected </Blob>, found </Blobs>") on malformed or truncated input.
bool ParseListBlobsXml(std::string_view xml, ListPage* out, std::string* error);

/// Parses an ADLS Gen2 List Paths body ({"paths":[...]}); numbers and booleans may be strings.
/// The continuation token comes in the x-ms-continuation header, not the body: the caller sets
/// next_marker from it.
bool ParseListPathsJson(std::string_view json, ListPage* out, std::string* error);

/// Decodes XML character data: the five named entities and numeric references (to UTF-8).
/// Returns false on an unknown or unterminated entity.
bool DecodeXmlText(std::string_view text, std::string* out);

}  // namespace feedcheck
