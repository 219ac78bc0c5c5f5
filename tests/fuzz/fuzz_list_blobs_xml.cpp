// libFuzzer target: List Blobs XML pages, List Paths JSON bodies and XML character data
// (probes/list_blobs_xml.h); every input goes through all three parsers.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "probes/list_blobs_xml.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace feedcheck;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  ListPage page;
  std::string error;
  if (ParseListBlobsXml(input, &page, &error)) {
    // Decoding only shrinks text, so nothing parsed can be longer than the page itself.
    for (const auto& e : page.entries)
      if (e.name.size() > size) __builtin_trap();
    for (const auto& p : page.prefixes)
      if (p.size() > size) __builtin_trap();
    if (page.next_marker.size() > size) __builtin_trap();
  }
  (void)ParseListPathsJson(input, &page, &error);
  std::string text;
  if (DecodeXmlText(input, &text) && text.size() > size) __builtin_trap();
  return 0;
}
