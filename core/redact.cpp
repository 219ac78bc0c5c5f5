#include "core/redact.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/ascii_text.h"
#include "core/known_secrets.h"

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
         static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
}

bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// An environment variable's name as written in YAML or `env` output: AZURE_STORAGE_KEY.
bool IsUpperSnakeName(std::string_view name) {
  return name.size() >= 3 && std::all_of(name.begin(), name.end(), [](char c) {
           return std::isupper(static_cast<unsigned char>(c)) ||
                  std::isdigit(static_cast<unsigned char>(c)) || c == '_';
         });
}

// NAME=value where NAME says it holds a secret (AZURE_STORAGE_KEY=..., CLIENT_SECRET=...): an
// environment dump (/proc/self/environ, `env` in a log) or a config line; and the YAML form
// `AZURE_STORAGE_KEY: value` (upper-case names only, so prose such as "key: 'x'" stays). The
// value goes up to the next space, quote, ';', '&' or control byte; a quoted one to its quote.
std::string RedactSecretAssignments(std::string s) {
  size_t pos = 0;
  while ((pos = s.find_first_of("=:", pos)) != std::string::npos) {
    size_t name_end = pos;
    if (s[pos] == ':' && name_end > 0 && (s[name_end - 1] == '"' || s[name_end - 1] == '\''))
      --name_end;  // "AZURE_STORAGE_KEY": value
    size_t start = name_end;
    while (start > 0 && IsNameChar(s[start - 1])) --start;
    std::string_view name = std::string_view(s).substr(start, name_end - start);
    size_t value = pos + 1;
    if (s[pos] == ':') {
      if (value >= s.size() || s[value] != ' ' || !IsUpperSnakeName(name)) {
        pos = value;
        continue;
      }
      while (value < s.size() && s[value] == ' ') ++value;
    }
    if (name.empty() || !LooksLikeSecretName(name)) {
      pos = pos + 1;
      continue;
    }
    char quote = value < s.size() && (s[value] == '"' || s[value] == '\'') ? s[value] : '\0';
    if (quote) ++value;
    size_t end = value;
    if (quote) {
      while (end < s.size() && s[end] != quote && s[end] != '\n') ++end;
    } else {
      while (end < s.size() && !IsQueryDelimiter(s[end]) && s[end] != ';') ++end;
    }
    if (end > value && s.compare(value, end - value, kRedacted) != 0)
      s.replace(value, end - value, kRedacted);
    pos = value + (end > value ? kRedacted.size() : 0);
  }
  return s;
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

bool LooksLikeSecretName(std::string_view name) {
  static constexpr std::array<std::string_view, 11> kSuffixes = {
      "key",        "token", "secret",    "password",          "passwd",
      "sas",        "sig",   "signature", "connection_string", "credential",
      "credentials"};
  std::string lower = ToLower(name);
  for (std::string_view suffix : kSuffixes) {
    if (lower.size() < suffix.size() ||
        lower.compare(lower.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    // The whole name, or a word of it: "AZURE_STORAGE_KEY", "AccountKey", not "MONKEY".
    size_t before = lower.size() - suffix.size();
    if (before == 0 || name[before - 1] == '_' || name[before - 1] == '-' ||
        (std::isupper(static_cast<unsigned char>(name[before])) != 0 &&
         std::islower(static_cast<unsigned char>(name[before - 1])) != 0))
      return true;
  }
  return false;
}

namespace {

// "scheme://user:PASSWORD@host", anywhere in the text: the password goes, the user (a wasbs://
// container) stays.
std::string RedactUserInfo(std::string s) {
  size_t pos = 0;
  while ((pos = s.find("://", pos)) != std::string::npos) {
    size_t start = pos + 3;
    size_t end = s.find_first_of("/?# \t\r\n\"'<>", start);
    if (end == std::string::npos) end = s.size();
    // Searched inside the authority only: a line of many URLs costs linear work.
    std::string_view authority = std::string_view(s).substr(start, end - start);
    size_t at_in = authority.rfind('@');
    size_t colon_in = authority.find(':');
    size_t at = at_in == std::string_view::npos ? std::string::npos : start + at_in;
    size_t colon = colon_in == std::string_view::npos ? std::string::npos : start + colon_in;
    if (at != std::string::npos && colon < at && at > colon + 1 &&
        s.compare(colon + 1, at - colon - 1, kRedacted) != 0) {
      s.replace(colon + 1, at - colon - 1, kRedacted);
      end = colon + 1 + kRedacted.size();
    }
    pos = std::min(end, s.size());
  }
  return s;
}

}  // namespace

namespace {

bool IsBase64Char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/';
}
bool IsBase64UrlChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
}

// Secrets known by their shape wherever they stand, whatever names them (a JSON "value", an
// error message): a storage account key or a SAS/Shared Key signature (base64 of at least 32
// bytes, '='-padded: 43+ characters and '='), and a JSON Web Token (eyJ...header.payload.sig).
std::string RedactSecretShapes(std::string s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const bool starts = i == 0 || (!IsBase64Char(s[i - 1]) && s[i - 1] != '=');
    if (starts && s.compare(i, 3, "eyJ") == 0) {
      size_t end = i, dots = 0;
      while (end < s.size() && (IsBase64UrlChar(s[end]) || (s[end] == '.' && dots < 2))) {
        if (s[end] == '.') ++dots;
        ++end;
      }
      if (dots == 2 && end - i >= 30 && s[end - 1] != '.') {
        out.append(kRedacted);
        i = end;
        continue;
      }
    }
    if (starts && IsBase64Char(s[i])) {
      size_t end = i;
      while (end < s.size() && IsBase64Char(s[end])) ++end;
      if (end - i >= 43 && end < s.size() && s[end] == '=') {
        while (end < s.size() && s[end] == '=') ++end;
        out.append(kRedacted);
        i = end;
        continue;
      }
      out.append(s, i, end - i);
      i = end;
      continue;
    }
    out.push_back(s[i++]);
  }
  return out;
}

// The JSON form of a named secret, any case: "accountKey": "...", "client_secret" : "...".
std::string RedactJsonSecrets(std::string s) {
  if (s.find("\":") == std::string::npos && s.find("\" :") == std::string::npos) return s;
  size_t pos = 0;
  while ((pos = s.find('"', pos)) != std::string::npos) {
    const size_t name_end = pos++;
    size_t colon = pos;
    while (colon < s.size() && s[colon] == ' ') ++colon;
    if (colon >= s.size() || s[colon] != ':') continue;
    size_t name_start = name_end;
    while (name_start > 0 && s[name_start - 1] != '"' && name_end - name_start < 64) --name_start;
    if (name_start == 0 || s[name_start - 1] != '"' || name_start == name_end) continue;
    if (!LooksLikeSecretName(std::string_view(s).substr(name_start, name_end - name_start)))
      continue;
    size_t value = colon + 1;
    while (value < s.size() && (s[value] == ' ' || s[value] == '\t')) ++value;
    if (value >= s.size() || s[value] != '"') continue;
    size_t end = value + 1;
    while (end < s.size() && s[end] != '"' && s[end] != '\n') end += s[end] == '\\' ? 2 : 1;
    end = std::min(end, s.size());
    if (end > value + 1 && s.compare(value + 1, end - value - 1, kRedacted) != 0)
      s.replace(value + 1, end - value - 1, kRedacted);
    pos = value + 1 + kRedacted.size() + 1;
  }
  return s;
}

}  // namespace

std::string RedactUrl(std::string_view url) {
  return ScrubKnownSecrets(RedactParams(RedactUserInfo(std::string(url))));
}

std::string RedactHeaderValue(std::string_view name, std::string_view value) {
  std::string lower = ToLower(name);
  if (lower == "authorization" || lower == "proxy-authorization" ||
      lower == "x-ms-copy-source-authorization" || lower == "cookie" || lower == "set-cookie")
    return std::string(kRedacted);
  if (lower == "x-ms-copy-source" || lower == "location") return RedactUrl(value);
  return RedactText(value);
}

std::string RedactText(std::string_view text) {
  std::string s = RedactParams(RedactEncodedParams(RedactUserInfo(std::string(text))));
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
        lower.replace(start, end - start, "redacted");  // the same edit, without a new pass
      }
      pos = start + kRedacted.size();
    }
  }
  return ScrubKnownSecrets(
      RedactSecretShapes(RedactJsonSecrets(RedactSecretAssignments(std::move(s)))));
}

}  // namespace feedcheck
