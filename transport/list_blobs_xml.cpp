#include "transport/list_blobs_xml.h"

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/json_input.h"
#include "core/utf8_append.h"
#include "transport/blob_limits.h"

namespace feedcheck {

namespace {

constexpr int kMaxDepth = 64;

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string PercentDecode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && HexDigit(s[i + 1]) >= 0 && HexDigit(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(HexDigit(s[i + 1]) * 16 + HexDigit(s[i + 2])));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

bool ParseU64(std::string_view s, uint64_t* out) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\n' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\t'))
    s.remove_suffix(1);
  if (s.empty() || s.size() > 19) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  *out = v;
  return true;
}

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || c == ':';
}

// Which element we are inside, for the few that matter. Everything else is "other".
enum class Elem : uint8_t {
  kOther,
  kRoot,          // EnumerationResults
  kBlobs,         // EnumerationResults/Blobs
  kBlob,          // .../Blobs/Blob
  kBlobName,      // .../Blob/Name
  kProperties,    // .../Blob/Properties
  kLength,        // .../Properties/Content-Length
  kResourceType,  // .../Properties/ResourceType (HNS accounts)
  kPrefix,        // .../Blobs/BlobPrefix
  kPrefixName,    // .../BlobPrefix/Name
  kNextMarker,    // EnumerationResults/NextMarker
};

Elem Child(Elem parent, std::string_view name) {
  switch (parent) {
    case Elem::kRoot:
      if (name == "Blobs") return Elem::kBlobs;
      if (name == "NextMarker") return Elem::kNextMarker;
      return Elem::kOther;
    case Elem::kBlobs:
      if (name == "Blob") return Elem::kBlob;
      if (name == "BlobPrefix") return Elem::kPrefix;
      return Elem::kOther;
    case Elem::kBlob:
      if (name == "Name") return Elem::kBlobName;
      if (name == "Properties") return Elem::kProperties;
      return Elem::kOther;
    case Elem::kProperties:
      if (name == "Content-Length") return Elem::kLength;
      if (name == "ResourceType") return Elem::kResourceType;
      return Elem::kOther;
    case Elem::kPrefix:
      return name == "Name" ? Elem::kPrefixName : Elem::kOther;
    default:
      return Elem::kOther;
  }
}

bool HasText(Elem e) {
  return e == Elem::kBlobName || e == Elem::kLength || e == Elem::kResourceType ||
         e == Elem::kPrefixName || e == Elem::kNextMarker;
}

struct Frame {
  std::string_view name;
  Elem elem;
  bool encoded;       // <Name Encoded="true">
  size_t text_begin;  // offset just after the start tag
};

}  // namespace

bool DecodeXmlText(std::string_view text, std::string* out) {
  out->clear();
  size_t amp = text.find('&');
  if (amp == std::string_view::npos) {
    out->assign(text);
    return true;
  }
  out->reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    amp = text.find('&', i);
    if (amp == std::string_view::npos) {
      out->append(text.substr(i));
      break;
    }
    out->append(text.substr(i, amp - i));
    size_t semi = text.find(';', amp);
    if (semi == std::string_view::npos || semi - amp > 12) return false;
    std::string_view ent = text.substr(amp + 1, semi - amp - 1);
    if (ent == "amp")
      out->push_back('&');
    else if (ent == "lt")
      out->push_back('<');
    else if (ent == "gt")
      out->push_back('>');
    else if (ent == "quot")
      out->push_back('"');
    else if (ent == "apos")
      out->push_back('\'');
    else if (ent.size() >= 2 && ent[0] == '#') {
      uint32_t cp = 0;
      bool hex = ent[1] == 'x' || ent[1] == 'X';
      std::string_view digits = ent.substr(hex ? 2 : 1);
      if (digits.empty()) return false;
      for (char c : digits) {
        int d = hex ? HexDigit(c) : (c >= '0' && c <= '9' ? c - '0' : -1);
        if (d < 0) return false;
        cp = cp * (hex ? 16 : 10) + static_cast<uint32_t>(d);
        if (cp > 0x10FFFF) return false;
      }
      AppendUtf8(cp, out);
    } else {
      return false;
    }
    i = semi + 1;
  }
  return true;
}

namespace {
constexpr uint64_t kPageEnvelopeBytes = 64ull << 10;
constexpr uint64_t kEntryBytes = 840 + 5 * kMaxBlobNameChars;
}  // namespace

uint64_t ListPageMaxBytes(int max_results) {
  return kPageEnvelopeBytes + kEntryBytes * static_cast<uint64_t>(std::clamp(max_results, 1, 5000));
}

int ListPageEntriesFitting(uint64_t bytes) {
  if (bytes < kPageEnvelopeBytes + kEntryBytes) return 0;
  return static_cast<int>(std::min<uint64_t>(5000, (bytes - kPageEnvelopeBytes) / kEntryBytes));
}

bool ParseListBlobsXml(std::string_view xml, ListPage* out, std::string* error) {
  out->Clear();
  Frame stack[kMaxDepth];
  int depth = 0;
  bool root_seen = false;
  bool root_closed = false;
  ListedEntry current;
  std::string text;
  auto fail = [&](size_t at, const std::string& what) {
    *error = "List Blobs XML, byte " + std::to_string(at) + ": " + what;
    return false;
  };
  const char* data = xml.data();
  const size_t n = xml.size();
  size_t pos = 0;
  while (pos < n) {
    const void* lt = std::memchr(data + pos, '<', n - pos);
    if (!lt) break;  // trailing character data (whitespace) after the root
    size_t open = static_cast<size_t>(static_cast<const char*>(lt) - data);
    if (open + 1 >= n) return fail(open, "truncated tag");
    char c = data[open + 1];
    if (c == '?') {  // <?xml ...?>
      size_t end = xml.find("?>", open + 2);
      if (end == std::string_view::npos) return fail(open, "unterminated <?...?>");
      pos = end + 2;
      continue;
    }
    if (c == '!') {
      if (xml.compare(open, 4, "<!--") == 0) {
        size_t end = xml.find("-->", open + 4);
        if (end == std::string_view::npos) return fail(open, "unterminated comment");
        pos = end + 3;
        continue;
      }
      if (xml.compare(open, 9, "<![CDATA[") == 0) {
        size_t end = xml.find("]]>", open + 9);
        if (end == std::string_view::npos) return fail(open, "unterminated CDATA");
        pos = end + 3;  // CDATA text is taken raw when the element's text is read below
        continue;
      }
      if (xml.compare(open, 9, "<!DOCTYPE") == 0)
        // Azure sends none; one may define entities that expand to gigabytes (the "billion
        // laughs"). None is ever expanded here, and the page is refused whole.
        return fail(open, "a DOCTYPE declaration (entities it defines are never expanded)");
      size_t end = xml.find('>', open);  // another <!...> declaration: skip
      if (end == std::string_view::npos) return fail(open, "unterminated declaration");
      pos = end + 1;
      continue;
    }
    bool closing = c == '/';
    size_t name_begin = open + (closing ? 2 : 1);
    size_t k = name_begin;
    while (k < n && IsNameChar(data[k])) ++k;
    if (k == name_begin) return fail(open, "expected an element name after '<'");
    std::string_view name = xml.substr(name_begin, k - name_begin);
    const void* gt = std::memchr(data + k, '>', n - k);
    if (!gt) return fail(open, "truncated tag <" + std::string(name));
    size_t close = static_cast<size_t>(static_cast<const char*>(gt) - data);
    pos = close + 1;

    if (closing) {
      if (depth == 0) return fail(open, "unexpected </" + std::string(name) + ">");
      Frame& f = stack[depth - 1];
      if (f.name != name)
        return fail(open,
                    "expected </" + std::string(f.name) + ">, found </" + std::string(name) + ">");
      if (HasText(f.elem)) {
        std::string_view raw = xml.substr(f.text_begin, open - f.text_begin);
        if (raw.find('<') != std::string_view::npos) {
          // Only a CDATA section may nest here; take its content.
          size_t cd = raw.find("<![CDATA[");
          size_t cd_end = raw.rfind("]]>");
          if (cd == std::string_view::npos || cd_end == std::string_view::npos || cd_end < cd)
            return fail(f.text_begin, "unexpected markup inside <" + std::string(f.name) + ">");
          text.assign(raw.substr(cd + 9, cd_end - cd - 9));
        } else if (!DecodeXmlText(raw, &text)) {
          return fail(f.text_begin, "bad entity in <" + std::string(f.name) + ">");
        }
        switch (f.elem) {
          case Elem::kBlobName:
            current.name = f.encoded ? PercentDecode(text) : text;
            break;
          case Elem::kLength:
            if (!ParseU64(text, &current.size_bytes)) {
              bool digits = !text.empty() && text.size() <= 40 &&
                            text.find_first_not_of("0123456789") == std::string::npos;
              // All digits but no uint64_t: a size past 2^64, as impossible as 2^64-1.
              return fail(f.text_begin, digits ? ImplausibleSizeMessage(text)
                                               : "Content-Length is not a number: '" + text + "'");
            }
            if (!IsPlausibleBlobSize(current.size_bytes))
              return fail(f.text_begin, ImplausibleSizeMessage(current.size_bytes));
            break;
          case Elem::kResourceType:
            current.is_dir = text == "directory";
            break;
          case Elem::kPrefixName:
            out->prefixes.push_back(f.encoded ? PercentDecode(text) : text);
            break;
          case Elem::kNextMarker:
            out->next_marker = text;
            break;
          default:
            break;
        }
      } else if (f.elem == Elem::kBlob) {
        out->entries.push_back(std::move(current));
        current = ListedEntry();
      } else if (f.elem == Elem::kRoot) {
        root_closed = true;
      }
      --depth;
      continue;
    }

    bool self_closing = close > k && data[close - 1] == '/';
    Elem parent = depth > 0 ? stack[depth - 1].elem : Elem::kOther;
    Elem elem;
    if (depth == 0) {
      if (root_seen) return fail(open, "a second root element <" + std::string(name) + ">");
      if (name != "EnumerationResults")
        return fail(open, "expected <EnumerationResults>, found <" + std::string(name) + ">");
      root_seen = true;
      elem = Elem::kRoot;
    } else {
      elem = Child(parent, name);
    }
    if (self_closing) {
      // <NextMarker /> is the last page; <Blobs /> an empty listing; an empty <Blob/> is odd
      // but harmless.
      if (elem == Elem::kRoot) root_closed = true;
      continue;
    }
    if (depth == kMaxDepth) return fail(open, "elements nested deeper than 64");
    bool encoded = false;
    if (elem == Elem::kBlobName || elem == Elem::kPrefixName) {
      std::string_view attrs = xml.substr(k, close - k);
      encoded = attrs.find("Encoded=\"true\"") != std::string_view::npos;
    }
    stack[depth++] = Frame{name, elem, encoded, pos};
  }
  if (!root_seen) return fail(n, "no <EnumerationResults> element (not a List Blobs response)");
  if (depth > 0 || !root_closed)
    return fail(
        n, "truncated: <" + std::string(stack[depth > 0 ? depth - 1 : 0].name) + "> is not closed");
  return true;
}

bool ParseListPathsJson(std::string_view text, ListPage* out, std::string* error) {
  out->Clear();
  // Read the checked way (core/json_input): nesting past the limit or a number out of range is
  // refused like any other bad answer.
  const JsonSource quiet{"List Paths JSON", "", nullptr};
  const std::optional<nlohmann::json> doc = ParseJsonInput(text, quiet);
  if (!doc) {
    *error = "List Paths JSON: not valid JSON";
    return false;
  }
  const JsonField paths = JsonField::Root(*doc, quiet)["paths"];
  if (!paths.is_array()) {
    *error = "List Paths JSON: no \"paths\" array";
    return false;
  }
  size_t index = 0;
  for (const JsonField& p : paths.Elements()) {
    std::string where = "List Paths JSON, paths[" + std::to_string(index++) + "]";
    const std::optional<std::string> name =
        p["name"].is_string() ? p["name"].String() : std::nullopt;
    if (!name) {
      *error = where + ": no \"name\"";
      return false;
    }
    ListedEntry e;
    e.name = *name;
    if (const JsonField d = p["isDirectory"]; d.present())
      e.is_dir = (d.is_bool() && d.BoolOr(false)) || (d.is_string() && d.StringOr("") == "true");
    if (const JsonField l = p["contentLength"]; l.raw() != nullptr) {
      const auto* whole = l.raw()->get_ptr<const nlohmann::json::number_unsigned_t*>();
      if (whole != nullptr) {
        e.size_bytes = *whole;
      } else if (l.is_string()) {
        if (!ParseU64(l.StringOr(""), &e.size_bytes)) {
          *error = where + ": contentLength is not a number";
          return false;
        }
      } else if (l.present()) {
        *error = where + ": contentLength is not a number";
        return false;
      }
      if (!IsPlausibleBlobSize(e.size_bytes)) {
        *error = where + ": " + ImplausibleSizeMessage(e.size_bytes);
        return false;
      }
    }
    out->entries.push_back(std::move(e));
  }
  return true;
}

}  // namespace feedcheck
