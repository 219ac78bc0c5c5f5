// Removes secrets from anything shown: SAS signatures and other credential query parameters,
// Authorization headers, bearer tokens and Shared Key signatures, account keys in connection
// strings, and the values of the credentials this process holds. Every URL or header that reaches a
// message, a fact or a report passes through here.
#pragma once

#include <string>
#include <string_view>

namespace feedcheck {

inline constexpr std::string_view kRedacted = "REDACTED";

/// Redacts credential query parameters (sig, and token-like ones) in a URL.
std::string RedactUrl(std::string_view url);
/// The value of a header as it may be shown ("Authorization" -> "REDACTED").
std::string RedactHeaderValue(std::string_view name, std::string_view value);
/// Redacts secrets anywhere in free text (messages, error bodies, log lines): credential query
/// parameters, Authorization and AccountKey= values, NAME=value where NAME names a secret, and
/// every value this process holds (core/known_secrets.h).
std::string RedactText(std::string_view text);
/// Whether an environment variable or field called `name` holds a secret: it ends in a word
/// such as KEY, TOKEN, SECRET, PASSWORD, SAS, SIG, CONNECTION_STRING ("AZURE_STORAGE_KEY",
/// "AccountKey", "client_secret"; not "MONKEY").
bool LooksLikeSecretName(std::string_view name);

}  // namespace feedcheck
