// libFuzzer target: List Blobs XML pages, List Paths JSON bodies and XML character data
// (transport/list_blobs_xml.h); every input goes through all three parsers. A parsed page never
// holds a size no blob can have (blob_limits.h), and its names, whatever bytes they hold, always
// make valid JSON (core/json_text.h: invalid UTF-8 is replaced, never thrown on). Every name
// segment also goes through cleanup's test-prefix matcher (test_prefix_name.h): whatever it
// accepts must format back to exactly the same text (the generator's grammar, nothing more).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/json_text.h"
#include "probes/test_prefix_name.h"
#include "transport/blob_limits.h"
#include "transport/list_blobs_xml.h"

namespace {

void CheckSegments(std::string_view name) {
  for (size_t start = 0; start <= name.size();) {
    size_t slash = name.find('/', start);
    if (slash == std::string_view::npos) slash = name.size();
    std::string_view segment = name.substr(start, slash - start);
    if (auto parsed = feedcheck::ParseTestPrefixSegment(segment))
      if (feedcheck::FormatTestPrefixSegment(*parsed) != segment) __builtin_trap();
    start = slash + 1;
  }
}

void CheckPage(const feedcheck::ListPage& page, size_t size) {
  nlohmann::json names = nlohmann::json::array();
  for (const auto& e : page.entries) {
    if (!feedcheck::IsPlausibleBlobSize(e.size_bytes)) __builtin_trap();
    CheckSegments(e.name);
    names.push_back(e.name);
  }
  for (const auto& p : page.prefixes) names.push_back(p);
  names.push_back(page.next_marker);
  std::string text = feedcheck::JsonText(names, -1);
  if (nlohmann::json::parse(text, nullptr, false).is_discarded()) __builtin_trap();
  (void)size;
}

}  // namespace

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
    CheckPage(page, size);
  }
  page.Clear();
  if (ParseListPathsJson(input, &page, &error)) CheckPage(page, size);
  std::string text;
  if (DecodeXmlText(input, &text) && text.size() > size) __builtin_trap();
  return 0;
}
