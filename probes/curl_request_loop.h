// HttpRequestLoop over libcurl's multi socket interface and epoll: one thread drives every
// lane's connection, woken only by sockets that are ready or by libcurl's next timer. This is
// how the request-rate measurement (`probe latency --concurrency N`) keeps N small requests in
// flight without a thread, a poll set or a handle set-up per request.
#pragma once

#include <memory>

#include "probes/curl_http_client.h"
#include "probes/http_client.h"

namespace feedcheck {

class CurlRequestLoop : public HttpRequestLoop {
 public:
  explicit CurlRequestLoop(CurlClientOptions options = {});
  ~CurlRequestLoop() override;
  CurlRequestLoop(const CurlRequestLoop&) = delete;
  CurlRequestLoop& operator=(const CurlRequestLoop&) = delete;

  void Run(int lanes, const NextFn& next, const DoneFn& done) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace feedcheck
