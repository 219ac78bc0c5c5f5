// An HttpRequestLoop over plain HttpClients, one thread per lane: what a probe gets when its
// environment has no event loop (unit tests with scripted clients). The callbacks are
// serialised, so the probe's logic is the same as under the single-threaded curl loop.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "transport/http_client.h"

namespace feedcheck {

class ThreadedRequestLoop : public HttpRequestLoop {
 public:
  explicit ThreadedRequestLoop(std::function<std::unique_ptr<HttpClient>()> make_client)
      : make_client_(std::move(make_client)) {}
  void Run(int lanes, const NextFn& next, const DoneFn& done) override;

 private:
  std::function<std::unique_ptr<HttpClient>()> make_client_;
  std::vector<std::unique_ptr<HttpClient>> clients_;  ///< one per lane, kept across runs
  std::vector<HttpRequest> requests_;
};

}  // namespace feedcheck
