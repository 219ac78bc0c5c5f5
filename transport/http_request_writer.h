// The bytes of an HTTP/1.1 request for the raw request path (raw_lane.cpp), built from an
// HttpRequest the way libcurl would send it (curl's URL parser, its Host header rules, no
// Accept or Expect), and the origin a connection for it goes to. Also whether libcurl would
// send it through a proxy from the environment, in which case the raw path is not used.
#pragma once

#include <string>

#include "transport/http_client.h"

namespace feedcheck {

/// Where a request's connection goes.
struct HttpOrigin {
  std::string scheme;            ///< "http" or "https"
  std::string host;              ///< as in the URL; IPv6 literals keep their brackets
  long port = 0;                 ///< explicit or the scheme's default
  std::string authority;         ///< the Host header: host, and ":port" unless it is the default
  std::string origin_url;        ///< "scheme://host:port/", for libcurl's connect-only transfer
  bool has_credentials = false;  ///< user:password@ in the URL (left to libcurl)

  bool tls() const { return scheme == "https"; }
};

/// Builds the request line and headers (not the body) into `*head`, reusing its storage.
/// False with `*error` for a URL libcurl would refuse or a header that would break framing
/// (a line break in a name or value); the message never holds the URL's query.
bool WriteHttpRequestHead(const HttpRequest& request, std::string* head, HttpOrigin* origin,
                          std::string* error);

/// True when libcurl, left to its defaults, would reach `origin` through a proxy named in the
/// environment (http_proxy, https_proxy/HTTPS_PROXY, all_proxy/ALL_PROXY, unless no_proxy/
/// NO_PROXY names the host). Errs towards true: the libcurl path handles either.
bool ProxyFromEnvironment(const HttpOrigin& origin);

}  // namespace feedcheck
