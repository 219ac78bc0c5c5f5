#include "transport/http_request_writer.h"

#include <curl/curl.h>

#include <cstdlib>
#include <memory>

#include "core/ascii_text.h"

namespace feedcheck {
namespace {

struct UrlFree {
  void operator()(CURLU* u) const { curl_url_cleanup(u); }
};

// One part of a parsed URL; empty when absent.
std::string Part(CURLU* url, CURLUPart part) {
  char* text = nullptr;
  if (curl_url_get(url, part, &text, 0) != CURLUE_OK || !text) return {};
  std::string out(text);
  curl_free(text);
  return out;
}

bool HasLineBreak(std::string_view s) { return s.find_first_of("\r\n") != std::string_view::npos; }

bool MethodHasLength(const HttpRequest& r) {
  return !r.body.empty() || r.method == "PUT" || r.method == "POST";
}

const char* Env(const char* lower, const char* upper) {
  const char* v = std::getenv(lower);
  if ((!v || !*v) && upper) v = std::getenv(upper);
  return v && *v ? v : nullptr;
}

// no_proxy: "*", or names (a leading dot optional) matching the host or a domain above it.
bool NoProxyCovers(const char* list, std::string_view host) {
  if (!list) return false;
  std::string_view rest(list);
  if (!host.empty() && host.front() == '[') host = host.substr(1, host.size() - 2);
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string_view entry = Trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (entry == "*") return true;
    if (!entry.empty() && entry.front() == '.') entry.remove_prefix(1);
    if (entry.empty()) continue;
    if (IEquals(host, entry)) return true;
    if (host.size() > entry.size() && host[host.size() - entry.size() - 1] == '.' &&
        IEquals(host.substr(host.size() - entry.size()), entry))
      return true;
  }
  return false;
}

}  // namespace

bool WriteHttpRequestHead(const HttpRequest& request, std::string* head, HttpOrigin* origin,
                          std::string* error) {
  std::unique_ptr<CURLU, UrlFree> url(curl_url());
  if (!url || curl_url_set(url.get(), CURLUPART_URL, request.url.c_str(), 0) != CURLUE_OK) {
    *error = "URL using bad/illegal format or missing URL";
    return false;
  }
  origin->scheme = ToLower(Part(url.get(), CURLUPART_SCHEME));
  if (origin->scheme != "http" && origin->scheme != "https") {
    *error = "unsupported URL scheme (http and https only)";
    return false;
  }
  origin->host = Part(url.get(), CURLUPART_HOST);
  std::string port = Part(url.get(), CURLUPART_PORT);
  long default_port = origin->tls() ? 443 : 80;
  origin->port = port.empty() ? default_port : std::strtol(port.c_str(), nullptr, 10);
  origin->has_credentials = !Part(url.get(), CURLUPART_USER).empty();
  // libcurl leaves the port out of Host when it is the scheme's default, even if written.
  origin->authority = origin->host;
  if (origin->port != default_port) origin->authority += ":" + std::to_string(origin->port);
  origin->origin_url =
      origin->scheme + "://" + origin->host + ":" + std::to_string(origin->port) + "/";
  std::string path = Part(url.get(), CURLUPART_PATH);
  std::string query = Part(url.get(), CURLUPART_QUERY);
  if (HasLineBreak(request.method) || request.method.empty()) {
    *error = "malformed request method";
    return false;
  }
  head->clear();
  head->append(request.method).append(" ").append(path.empty() ? "/" : path);
  if (!query.empty()) head->append("?").append(query);
  head->append(" HTTP/1.1\r\nHost: ").append(origin->authority).append("\r\n");
  bool has_length = false;
  for (const auto& [name, value] : request.headers) {
    if (HasLineBreak(name) || HasLineBreak(value) || name.empty()) {
      *error = "request header '" + (HasLineBreak(name) ? std::string("?") : name) +
               "' holds a line break";
      return false;
    }
    has_length |= IEquals(name, "content-length");
    head->append(name).append(value.empty() ? ":" : ": ").append(value).append("\r\n");
  }
  if (!has_length && MethodHasLength(request))
    head->append("Content-Length: ").append(std::to_string(request.body.size())).append("\r\n");
  head->append("\r\n");
  return true;
}

bool ProxyFromEnvironment(const HttpOrigin& origin) {
  // libcurl reads only the lower-case http_proxy (an upper-case one could come from a CGI
  // request header), both cases of the others.
  const char* proxy = origin.tls() ? Env("https_proxy", "HTTPS_PROXY") : Env("http_proxy", nullptr);
  if (!proxy) proxy = Env("all_proxy", "ALL_PROXY");
  if (!proxy) return false;
  return !NoProxyCovers(Env("no_proxy", "NO_PROXY"), origin.host);
}

}  // namespace feedcheck
