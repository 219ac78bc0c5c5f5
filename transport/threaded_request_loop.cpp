#include "transport/threaded_request_loop.h"

#include <mutex>
#include <thread>

#include "core/stop_request.h"

namespace feedcheck {

void ThreadedRequestLoop::Run(int lanes, const NextFn& next, const DoneFn& done) {
  if (lanes < 1) return;
  while (clients_.size() < static_cast<size_t>(lanes)) clients_.push_back(make_client_());
  requests_.resize(std::max(requests_.size(), static_cast<size_t>(lanes)));
  std::mutex mu;
  auto lane_loop = [&](int lane) {
    HttpRequest& request = requests_[static_cast<size_t>(lane)];
    for (;;) {
      {
        std::lock_guard<std::mutex> lock(mu);
        if (StopRequested() || !next(lane, &request)) return;
      }
      HttpResponse response = clients_[static_cast<size_t>(lane)]->Perform(request);
      std::lock_guard<std::mutex> lock(mu);
      done(lane, request, response);
    }
  };
  if (lanes == 1) {
    lane_loop(0);
    return;
  }
  std::vector<std::thread> threads;
  for (int lane = 0; lane < lanes; ++lane) threads.emplace_back(lane_loop, lane);
  for (auto& t : threads) t.join();
}

}  // namespace feedcheck
