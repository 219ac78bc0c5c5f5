// HttpRequestLoop over epoll: one thread drives every lane's connection, woken only by sockets
// that are ready or by the nearest timer. Each lane is a RawLane: libcurl opens the connection
// (resolve, connect, proxy, TLS) and the lane writes prebuilt HTTP/1.1 requests and parses the
// answers itself, so a small request costs about one send and one receive; a request libcurl
// would send through a proxy runs as a whole libcurl transfer instead. This is how the
// request-rate measurement (`probe latency --concurrency N`) keeps N small requests in flight
// without a thread, a poll set or libcurl's per-request set-up per request.
#pragma once

#include <memory>
#include <string_view>

#include "transport/curl_http_client.h"
#include "transport/http_client.h"

namespace feedcheck {

class CurlRequestLoop : public HttpRequestLoop {
 public:
  explicit CurlRequestLoop(CurlClientOptions options = {});
  ~CurlRequestLoop() override;
  CurlRequestLoop(const CurlRequestLoop&) = delete;
  CurlRequestLoop& operator=(const CurlRequestLoop&) = delete;

  void Run(int lanes, const NextFn& next, const DoneFn& done) override;
  std::string_view engine() const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace feedcheck
