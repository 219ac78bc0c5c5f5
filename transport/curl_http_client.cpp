#include "transport/curl_http_client.h"

#include <curl/curl.h>

#include <mutex>

#include "transport/curl_lane.h"

namespace feedcheck {

void EnsureCurlGlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct CurlHttpClient::Impl {
  explicit Impl(const CurlClientOptions& options) : lane(options, /*stop_by_progress=*/true) {}
  // One lane: its handle keeps the connection (and DNS) cache across requests, so the next
  // request reuses the connection unless it asks for a fresh one.
  CurlLane lane;
};

CurlHttpClient::CurlHttpClient(CurlClientOptions options)
    : impl_(std::make_unique<Impl>(options)) {}

CurlHttpClient::~CurlHttpClient() = default;

HttpResponse CurlHttpClient::Perform(const HttpRequest& request) {
  HttpResponse response;
  if (!impl_->lane.Prepare(request, &response)) return response;
  impl_->lane.Complete(curl_easy_perform(impl_->lane.handle()));
  return response;
}

}  // namespace feedcheck
