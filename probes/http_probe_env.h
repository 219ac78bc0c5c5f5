// What an HTTP probe needs from its caller: the parsed target, a signer holding the
// credential, a factory for connections (libcurl in the CLI, fakes in unit tests), the budget
// and an optional progress callback.
#pragma once

#include <functional>
#include <memory>

#include "probes/probe.h"
#include "transport/azure_auth.h"
#include "transport/http_client.h"
#include "transport/target.h"
#include "transport/threaded_request_loop.h"

namespace feedcheck {

using ClientFactory = std::function<std::unique_ptr<HttpClient>()>;
using RequestLoopFactory = std::function<std::unique_ptr<HttpRequestLoop>()>;

struct HttpProbeEnv {
  Target target;
  RequestSigner signer;
  ClientFactory make_client;
  /// Many requests in flight from one thread (libcurl's multi interface in the CLI). May be
  /// empty: RequestLoop() then runs a thread per lane over make_client (unit-test fakes).
  RequestLoopFactory make_loop;
  ProbeBudget budget;
  ProgressFn progress;  ///< may be empty

  std::unique_ptr<HttpRequestLoop> RequestLoop() const {
    if (make_loop) return make_loop();
    return std::make_unique<ThreadedRequestLoop>(make_client);
  }
  void Progress(const std::string& text) const {
    if (progress) progress(text);
  }
  /// A signed request. The signature covers method, URL and headers, so they are set here;
  /// timeouts and body handling may be changed afterwards.
  HttpRequest SignedRequest(const std::string& method, const std::string& url,
                            std::vector<std::pair<std::string, std::string>> headers = {}) const {
    HttpRequest r;
    r.method = method;
    r.url = url;
    r.headers = std::move(headers);
    signer.Sign(&r);
    return r;
  }
};

}  // namespace feedcheck
