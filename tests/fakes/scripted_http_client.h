// An HttpClient that answers from a script and records every request, for unit tests of probe
// logic (pagination, error handling). Real-server behaviour is tested against Azurite.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "transport/http_client.h"

namespace feedcheck::testing {

class ScriptedHttpClient : public HttpClient {
 public:
  using Handler = std::function<HttpResponse(const HttpRequest&)>;
  explicit ScriptedHttpClient(Handler handler) : handler_(std::move(handler)) {}
  HttpResponse Perform(const HttpRequest& request) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      requests_.push_back(request);
    }
    HttpResponse r = handler_(request);
    if (r.body_bytes == 0) r.body_bytes = r.body.size();
    return r;
  }
  std::vector<HttpRequest> requests() const {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_;
  }

 private:
  Handler handler_;
  mutable std::mutex mu_;
  std::vector<HttpRequest> requests_;
};

inline HttpResponse Ok(std::string body, double total_s = 0.01) {
  HttpResponse r;
  r.status = 200;
  r.body = std::move(body);
  r.timing.total_s = total_s;
  r.timing.ttfb_s = total_s / 2;
  return r;
}

}  // namespace feedcheck::testing
