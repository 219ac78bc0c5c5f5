#include "transport/curl_request_loop.h"

#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <vector>

#include "core/stop_request.h"
#include "transport/raw_lane.h"

namespace feedcheck {
namespace {

using Clock = RawLane::Clock;

// The longest sleep in epoll_wait: a stop request (SIGINT) is noticed within this.
constexpr int kMaxWaitMs = 100;

}  // namespace

struct CurlRequestLoop::Impl {
  struct LaneSlot {
    std::unique_ptr<RawLane> lane;
    HttpRequest request;
    HttpResponse response;
    bool active = false;  ///< a request of this Run is running on it
  };
  CurlClientOptions options;
  int epoll_fd = -1;
  std::vector<LaneSlot> slots;
  uint64_t raw_requests = 0;
  uint64_t libcurl_requests = 0;
};

CurlRequestLoop::CurlRequestLoop(CurlClientOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  impl_->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
}

CurlRequestLoop::~CurlRequestLoop() {
  impl_->slots.clear();  // lanes unregister their sockets from the epoll set first
  if (impl_->epoll_fd >= 0) ::close(impl_->epoll_fd);
}

std::string_view CurlRequestLoop::engine() const {
  if (impl_->raw_requests && impl_->libcurl_requests) return "raw+libcurl";
  if (impl_->libcurl_requests) return "libcurl";
  if (impl_->raw_requests) return "raw";
  return {};
}

void CurlRequestLoop::Run(int lanes, const NextFn& next, const DoneFn& done) {
  Impl& im = *impl_;
  if (lanes < 1) return;
  im.raw_requests = im.libcurl_requests = 0;
  // Without an epoll set, each request fails with the reason (no hang).
  if (im.epoll_fd < 0) {
    for (int lane = 0; lane < lanes; ++lane) {
      HttpRequest request;
      HttpResponse response;
      while (next(lane, &request)) {
        response.Clear();
        response.transport_error = "the event loop (epoll) could not be created";
        done(lane, request, response);
      }
    }
    return;
  }
  while (im.slots.size() < static_cast<size_t>(lanes)) {
    int index = static_cast<int>(im.slots.size());
    im.slots.emplace_back();
    im.slots.back().lane = std::make_unique<RawLane>(im.options, im.epoll_fd, index);
  }
  int active = 0;
  // Hands an ended request to `done`, then starts the lane's next one. A request that ends at
  // once (a bad URL, a refused connection reported synchronously) loops here.
  auto settle = [&](int index) {
    Impl::LaneSlot& s = im.slots[static_cast<size_t>(index)];
    while (s.active && s.lane->finished()) {
      s.lane->Collect();
      s.active = false;
      --active;
      ++(s.lane->ran_libcurl() ? im.libcurl_requests : im.raw_requests);
      done(index, s.request, s.response);
      // After a stop request nothing new starts; what is in flight ends (stoppable requests
      // at once, below), so the run returns within about one epoll wait.
      if (StopRequested() || !next(index, &s.request)) return;
      s.active = true;
      ++active;
      s.lane->Start(s.request, &s.response);
    }
  };
  for (int i = 0; i < lanes; ++i) {
    Impl::LaneSlot& s = im.slots[static_cast<size_t>(i)];
    s.response.Clear();
    if (StopRequested() || !next(i, &s.request)) continue;
    s.active = true;
    ++active;
    s.lane->Start(s.request, &s.response);
    settle(i);
  }

  epoll_event events[64];
  while (active > 0) {
    Clock::time_point now = Clock::now();
    Clock::time_point wake = now + std::chrono::milliseconds(kMaxWaitMs);
    for (int i = 0; i < lanes; ++i) {
      const Impl::LaneSlot& s = im.slots[static_cast<size_t>(i)];
      if (s.active) wake = std::min(wake, s.lane->NextWake());
    }
    int wait_ms = static_cast<int>(std::clamp<long long>(
        std::chrono::duration_cast<std::chrono::milliseconds>(wake - now).count() +
            (wake > now ? 1 : 0),
        0, kMaxWaitMs));
    int n = epoll_wait(im.epoll_fd, events, 64, wait_ms);
    if (n < 0 && errno != EINTR) break;
    for (int e = 0; e < n; ++e) {
      int index = RawLane::LaneOfKey(events[e].data.u64);
      if (index < 0 || index >= static_cast<int>(im.slots.size())) continue;
      Impl::LaneSlot& s = im.slots[static_cast<size_t>(index)];
      s.lane->OnEvent(RawLane::FdOfKey(events[e].data.u64), events[e].events);
      if (s.active) settle(index);
    }
    now = Clock::now();
    for (int i = 0; i < lanes; ++i) {
      Impl::LaneSlot& s = im.slots[static_cast<size_t>(i)];
      if (!s.active || s.lane->NextWake() > now) continue;
      s.lane->OnTime(now);
      settle(i);
    }
    if (StopRequested()) {
      // A transfer waiting on a silent server would otherwise wait for its timeout.
      for (int i = 0; i < lanes; ++i) {
        Impl::LaneSlot& s = im.slots[static_cast<size_t>(i)];
        if (!s.active || !s.request.stoppable) continue;
        s.lane->Stop();
        settle(i);
      }
    }
  }
}

}  // namespace feedcheck
