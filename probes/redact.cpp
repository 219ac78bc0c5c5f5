#include "probes/redact.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/ascii_text.h"

namespace feedcheck {
namespace {

// Query parameters whose value is a credential. `sig` is the SAS signature; the rest are
// tokens or keys some tools put into URLs. Compared case-insensitively.
constexpr std::array<std::string_view, 12> kSecretParams = {"sig",
                                                            "signature",
                                                            "token",
                                                            "access_token",
                                                            "code",
                                                            "key",
                                                            "accountkey",
                                                            "password",
                                                            "client_secret",
                                                            "x-amz-signature",
                                                            "x-amz-security-token",
                                                            "x-goog-signature"};

// Text markers followed by a secret up to the next delimiter.
constexpr std::array<std::string_view, 6> kSecretMarkers = {"authorization: ",
                                                            "bearer ",
                                                            "sharedkey ",
                                                            "accountkey=",
                                                            "sharedaccesssignature=",
                                                            "x-ms-copy-source-authorization: "};

bool IsSecretParam(std::string_view name) {
  return std::any_of(kSecretParams.begin(), kSecretParams.end(),
                     [&](std::string_view p) { return IEquals(p, name); });
}

bool IsQueryDelimiter(char c) {
  return c == '&' || c == '#' || c == ' ' || c == '"' || c == '\'' || c == '<' || c == '>' ||
         c == '\n' || c == '\r' || c == '\t';
}

// Redacts name=value pairs whose name is a secret, wherever they appear after '?' or '&'.
std::string RedactParams(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    out.push_back(c);
    ++i;
    if (c != '?' && c != '&' && c != ';') continue;
    size_t eq = i;
    while (eq < text.size() && (std::isalnum(static_cast<unsigned char>(text[eq])) ||
                                text[eq] == '_' || text[eq] == '-'))
      ++eq;
    if (eq >= text.size() || text[eq] != '=' || !IsSecretParam(text.substr(i, eq - i))) continue;
    out.append(text.substr(i, eq - i + 1));
    out.append(kRedacted);
    i = eq + 1;
    while (i < text.size() && !IsQueryDelimiter(text[i])) ++i;
  }
  return out;
}

// The same for a percent-encoded URL inside text (a server echoing the request into an error
// code or message): "%3Fsig%3DVALUE%26se%3D..." keeps the names, not the values.
std::string RedactEncodedParams(std::string_view text) {
  std::string lower = ToLower(text);
  if (lower.find("%3d") == std::string::npos) return std::string(text);
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    // A parameter starts after '?', '&' or their encodings %3F, %26.
    size_t start = std::string::npos;
    if (text[i] == '?' || text[i] == '&') {
      start = i + 1;
    } else if (text[i] == '%' && i + 2 < text.size() &&
               (lower.compare(i, 3, "%3f") == 0 || lower.compare(i, 3, "%26") == 0)) {
      start = i + 3;
    }
    if (start == std::string::npos) {
      out.push_back(text[i++]);
      continue;
    }
    out.append(text.substr(i, start - i));
    i = start;
    size_t eq = lower.find("%3d", i);
    if (eq == std::string::npos || eq - i > 32 || !IsSecretParam(text.substr(i, eq - i))) continue;
    out.append(text.substr(i, eq + 3 - i));
    out.append(kRedacted);
    i = eq + 3;
    while (i < text.size() && !IsQueryDelimiter(text[i]) && lower.compare(i, 3, "%26") != 0) ++i;
  }
  return out;
}

}  // namespace

std::string RedactUrl(std::string_view url) { return RedactParams(url); }

std::string RedactHeaderValue(std::string_view name, std::string_view value) {
  std::string lower = ToLower(name);
  if (lower == "authorization" || lower == "proxy-authorization" ||
      lower == "x-ms-copy-source-authorization" || lower == "cookie" || lower == "set-cookie")
    return std::string(kRedacted);
  if (lower == "x-ms-copy-source" || lower == "location") return RedactUrl(value);
  return RedactText(value);
}

std::string RedactText(std::string_view text) {
  std::string s = RedactParams(RedactEncodedParams(text));
  // Also catch "sig=..." at the very start of a bare SAS token.
  if (s.size() > 4 && IEquals(std::string_view(s).substr(0, 4), "sig=")) {
    size_t end = 4;
    while (end < s.size() && !IsQueryDelimiter(s[end])) ++end;
    s.replace(4, end - 4, kRedacted);
  }
  std::string lower = ToLower(s);
  for (std::string_view marker : kSecretMarkers) {
    size_t pos = 0;
    while ((pos = lower.find(marker, pos)) != std::string::npos) {
      size_t start = pos + marker.size();
      size_t end = start;
      // "SharedKey account:signature" keeps the account name.
      if (marker == "sharedkey ") {
        size_t colon = s.find(':', start);
        if (colon != std::string::npos && colon < s.find_first_of(" \r\n", start))
          start = colon + 1;
      }
      // An Authorization header keeps its scheme word so the kind of credential is visible.
      if (marker == "authorization: ") {
        size_t space = s.find(' ', start);
        if (space != std::string::npos && space < s.find_first_of("\r\n", start)) start = space + 1;
      }
      end = start;
      while (end < s.size() && s[end] != '\r' && s[end] != '\n' && s[end] != ';' && s[end] != '"' &&
             s[end] != '\'' && s[end] != ' ')
        ++end;
      if (end > start && s.compare(start, end - start, kRedacted) != 0) {
        s.replace(start, end - start, kRedacted);
        lower = ToLower(s);
      }
      pos = start + kRedacted.size();
    }
  }
  return s;
}

}  // namespace feedcheck
