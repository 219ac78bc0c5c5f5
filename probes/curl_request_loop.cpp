#include "probes/curl_request_loop.h"

#include <curl/curl.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <vector>

#include "probes/cleanup_registry.h"
#include "probes/curl_lane.h"

namespace feedcheck {
namespace {

using Clock = std::chrono::steady_clock;

// The longest sleep in epoll_wait: a stop request (SIGINT) is noticed within this.
constexpr int kMaxWaitMs = 100;

struct LaneSlot {
  std::unique_ptr<CurlLane> lane;
  HttpRequest request;
  HttpResponse response;
  bool active = false;  ///< its handle is in the multi handle
};

}  // namespace

struct CurlRequestLoop::Impl {
  CurlClientOptions options;
  CURLM* multi = nullptr;
  int epoll_fd = -1;
  std::vector<LaneSlot> slots;
  bool timer_set = false;
  Clock::time_point timer_due;

  // libcurl asks to watch (or stop watching) a socket.
  static int OnSocket(CURL*, curl_socket_t fd, int what, void* user, void* socket_data) {
    auto* self = static_cast<Impl*>(user);
    epoll_event ev{};
    ev.data.fd = fd;
    if (what == CURL_POLL_REMOVE) {
      if (socket_data) {
        epoll_ctl(self->epoll_fd, EPOLL_CTL_DEL, fd, nullptr);
        curl_multi_assign(self->multi, fd, nullptr);
      }
      return 0;
    }
    ev.events = (what & CURL_POLL_IN ? EPOLLIN : 0u) | (what & CURL_POLL_OUT ? EPOLLOUT : 0u);
    // A non-null socket pointer marks a socket already in the epoll set.
    if (socket_data) {
      epoll_ctl(self->epoll_fd, EPOLL_CTL_MOD, fd, &ev);
    } else {
      epoll_ctl(self->epoll_fd, EPOLL_CTL_ADD, fd, &ev);
      curl_multi_assign(self->multi, fd, self);
    }
    return 0;
  }
  // libcurl's single timer: -1 removes it, 0 means now.
  static int OnTimer(CURLM*, long timeout_ms, void* user) {
    auto* self = static_cast<Impl*>(user);
    self->timer_set = timeout_ms >= 0;
    if (self->timer_set) self->timer_due = Clock::now() + std::chrono::milliseconds(timeout_ms);
    return 0;
  }

  bool Start(int lane, const NextFn& next) {
    LaneSlot& s = slots[static_cast<size_t>(lane)];
    // After a stop request nothing new starts; what is in flight ends (stoppable requests at
    // once, below), so the run returns within about one epoll wait.
    if (StopRequested()) return false;
    if (!next(lane, &s.request)) return false;
    if (!s.lane->Prepare(s.request, &s.response)) return false;
    if (curl_multi_add_handle(multi, s.lane->handle()) != CURLM_OK) {
      s.response.transport_error = "libcurl could not start the request";
      return false;
    }
    s.active = true;
    return true;
  }
};

CurlRequestLoop::CurlRequestLoop(CurlClientOptions options) : impl_(std::make_unique<Impl>()) {
  EnsureCurlGlobalInit();
  impl_->options = std::move(options);
  impl_->multi = curl_multi_init();
  impl_->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  if (impl_->multi) {
    curl_multi_setopt(impl_->multi, CURLMOPT_SOCKETFUNCTION, &Impl::OnSocket);
    curl_multi_setopt(impl_->multi, CURLMOPT_SOCKETDATA, impl_.get());
    curl_multi_setopt(impl_->multi, CURLMOPT_TIMERFUNCTION, &Impl::OnTimer);
    curl_multi_setopt(impl_->multi, CURLMOPT_TIMERDATA, impl_.get());
  }
}

CurlRequestLoop::~CurlRequestLoop() {
  // Lanes (easy handles) go first: their connections belong to the multi handle's pool.
  for (auto& s : impl_->slots)
    if (s.active) curl_multi_remove_handle(impl_->multi, s.lane->handle());
  impl_->slots.clear();
  if (impl_->multi) curl_multi_cleanup(impl_->multi);
  if (impl_->epoll_fd >= 0) ::close(impl_->epoll_fd);
}

void CurlRequestLoop::Run(int lanes, const NextFn& next, const DoneFn& done) {
  Impl& im = *impl_;
  if (lanes < 1) return;
  while (im.slots.size() < static_cast<size_t>(lanes)) {
    im.slots.emplace_back();
    im.slots.back().lane = std::make_unique<CurlLane>(im.options, /*stop_by_progress=*/false);
    im.slots.back().lane->set_index(static_cast<int>(im.slots.size() - 1));
  }
  // Without a multi handle or an epoll set, each request fails with the reason (no hang).
  if (!im.multi || im.epoll_fd < 0) {
    for (int lane = 0; lane < lanes; ++lane) {
      LaneSlot& s = im.slots[static_cast<size_t>(lane)];
      while (next(lane, &s.request)) {
        s.response.Clear();
        s.response.transport_error = "libcurl's event loop could not be created";
        done(lane, s.request, s.response);
      }
    }
    return;
  }
  int active = 0;
  auto start = [&](int lane) {
    // A lane whose request could not even start reports it and asks for the next one.
    for (;;) {
      if (im.Start(lane, next)) {
        ++active;
        return;
      }
      LaneSlot& s = im.slots[static_cast<size_t>(lane)];
      if (s.response.transport_error.empty()) return;  // `next` said no more
      done(lane, s.request, s.response);
      s.response.Clear();
    }
  };
  for (int lane = 0; lane < lanes; ++lane) {
    im.slots[static_cast<size_t>(lane)].response.Clear();
    start(lane);
  }

  epoll_event events[64];
  int running = 0;
  while (active > 0) {
    int wait_ms = kMaxWaitMs;
    if (im.timer_set) {
      auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(im.timer_due - Clock::now());
      wait_ms = static_cast<int>(std::clamp<long long>(left.count(), 0, kMaxWaitMs));
    }
    int n = epoll_wait(im.epoll_fd, events, 64, wait_ms);
    if (n < 0 && errno != EINTR) break;
    for (int i = 0; i < n; ++i) {
      int mask = (events[i].events & EPOLLIN ? CURL_CSELECT_IN : 0) |
                 (events[i].events & EPOLLOUT ? CURL_CSELECT_OUT : 0) |
                 (events[i].events & (EPOLLERR | EPOLLHUP) ? CURL_CSELECT_ERR : 0);
      curl_multi_socket_action(im.multi, events[i].data.fd, mask, &running);
    }
    if (im.timer_set && Clock::now() >= im.timer_due) {
      im.timer_set = false;
      curl_multi_socket_action(im.multi, CURL_SOCKET_TIMEOUT, 0, &running);
    }
    int queued = 0;
    while (CURLMsg* msg = curl_multi_info_read(im.multi, &queued)) {
      if (msg->msg != CURLMSG_DONE) continue;
      CURL* easy = msg->easy_handle;
      CURLcode rc = msg->data.result;
      CurlLane* lane_ptr = nullptr;
      curl_easy_getinfo(easy, CURLINFO_PRIVATE, reinterpret_cast<char**>(&lane_ptr));
      curl_multi_remove_handle(im.multi, easy);
      --active;
      int lane = lane_ptr ? lane_ptr->index() : -1;
      if (lane < 0 || lane >= static_cast<int>(im.slots.size())) continue;
      LaneSlot& s = im.slots[static_cast<size_t>(lane)];
      s.active = false;
      s.lane->Complete(rc);
      done(lane, s.request, s.response);
      start(lane);
    }
    if (StopRequested()) {
      // A transfer waiting on a silent server gets no progress callback: end stoppable ones here.
      for (size_t i = 0; i < im.slots.size(); ++i) {
        LaneSlot& s = im.slots[i];
        if (!s.active || !s.request.stoppable) continue;
        curl_multi_remove_handle(im.multi, s.lane->handle());
        s.active = false;
        --active;
        s.lane->CompleteStopped();
        done(static_cast<int>(i), s.request, s.response);
      }
    }
  }
}

}  // namespace feedcheck
