#include "transport/raw_lane.h"

#include <fmt/format.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/stop_request.h"
#include "transport/answer_check.h"
#include "transport/curl_lane.h"

namespace feedcheck {
namespace {

// Enough for a small answer in one read; bigger bodies take several (each is one syscall).
constexpr size_t kRecvBufferBytes = 64 * 1024;

long Millis(double seconds) { return std::max(1L, static_cast<long>(seconds * 1000.0)); }

double Seconds(CURL* h, CURLINFO info) {
  curl_off_t us = 0;
  if (curl_easy_getinfo(h, info, &us) != CURLE_OK) return 0;
  return static_cast<double>(us) / 1e6;
}

double Between(RawLane::Clock::time_point a, RawLane::Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// The parser's words for a malformed answer, prefixed; the shared ones (http_client.h) stand
// alone, so they read as libcurl's transfers report the same fault.
std::string ParserFailureText(const std::string& error) {
  if (error == kNotHttpText || error.rfind("response headers too large", 0) == 0) return error;
  return "invalid HTTP response: " + error;
}

}  // namespace

RawLane::RawLane(const CurlClientOptions& options, int epoll_fd, int index)
    : options_(options), epoll_fd_(epoll_fd), index_(index) {
  EnsureCurlGlobalInit();
  multi_ = curl_multi_init();
  connect_ = curl_easy_init();
  if (!multi_ || !connect_) return;
  curl_multi_setopt(multi_, CURLMOPT_SOCKETFUNCTION, &RawLane::OnSocket);
  curl_multi_setopt(multi_, CURLMOPT_SOCKETDATA, this);
  curl_multi_setopt(multi_, CURLMOPT_TIMERFUNCTION, &RawLane::OnTimer);
  curl_multi_setopt(multi_, CURLMOPT_TIMERDATA, this);
  CURL* h = connect_;
  curl_easy_setopt(h, CURLOPT_CONNECT_ONLY, 1L);
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_);
  curl_easy_setopt(h, CURLOPT_TCP_NODELAY, 1L);
  curl_easy_setopt(h, CURLOPT_CLOSESOCKETFUNCTION, &CloseSocketNotingPeer);
  if (options.no_proxy) curl_easy_setopt(h, CURLOPT_NOPROXY, "*");
  // The same trust as CurlLane: what one engine accepts, the other does.
  const TlsOptions& tls = options.tls;
  if (!tls.ca_file.empty()) curl_easy_setopt(h, CURLOPT_CAINFO, tls.ca_file.c_str());
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, tls.insecure ? 0L : 1L);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, tls.insecure ? 0L : 2L);
  recv_buf_.resize(kRecvBufferBytes);
}

RawLane::~RawLane() {
  CloseConnection();
  if (curl_lane_ && state_ == State::kCurlTransfer)
    curl_multi_remove_handle(multi_, curl_lane_->handle());
  curl_lane_.reset();  // easy handles go before the multi handle that pooled their connections
  if (connect_) curl_easy_cleanup(connect_);
  if (multi_) curl_multi_cleanup(multi_);
}

int RawLane::OnSocket(CURL*, curl_socket_t fd, int what, void* user, void*) {
  auto* self = static_cast<RawLane*>(user);
  if (what == CURL_POLL_REMOVE) {
    epoll_ctl(self->epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
    if (fd == self->fd_) self->watched_ = 0;
    return 0;
  }
  uint32_t events = (what & CURL_POLL_IN ? EPOLLIN : 0u) | (what & CURL_POLL_OUT ? EPOLLOUT : 0u);
  self->Watch(fd, events);
  return 0;
}

int RawLane::OnTimer(CURLM*, long timeout_ms, void* user) {
  auto* self = static_cast<RawLane*>(user);
  self->curl_timer_set_ = timeout_ms >= 0;
  if (self->curl_timer_set_)
    self->curl_timer_due_ = Clock::now() + std::chrono::milliseconds(timeout_ms);
  return 0;
}

void RawLane::Watch(int fd, uint32_t events) {
  epoll_event ev{};
  ev.events = events;
  ev.data.u64 = EpollKey(index_, fd);
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, fd, &ev) != 0 && errno == ENOENT)
    epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev);
  if (fd == fd_) watched_ = events;
}

bool RawLane::PrepareWire(const HttpRequest& r) {
  // The latency probe hands the same request back until its signature's second changes:
  // comparing is far cheaper than building, and allocates nothing.
  if (wire_valid_ && r.url == wire_url_ && r.method == wire_method_ &&
      r.body.size() == wire_body_size_ && r.headers == wire_headers_)
    return wire_error_.empty();
  wire_url_ = r.url;
  wire_method_ = r.method;
  wire_headers_ = r.headers;
  wire_body_size_ = r.body.size();
  wire_valid_ = true;
  wire_error_.clear();
  if (!WriteHttpRequestHead(r, &head_, &origin_, &wire_error_)) return false;
  proxied_ = origin_.has_credentials || (!options_.no_proxy && ProxyFromEnvironment(origin_));
  return true;
}

void RawLane::Start(const HttpRequest& request, HttpResponse* response) {
  response->Clear();
  request_ = &request;
  response_ = response;
  start_ = Clock::now();
  deadline_ = start_ + std::chrono::milliseconds(Millis(request.timeout_s));
  connected_here_ = false;
  retried_ = false;
  got_first_byte_ = false;
  over_cap_ = false;
  wrong_answer_.clear();
  sent_ = 0;
  state_ = State::kExchanging;
  if (!multi_ || !connect_) return Fail("libcurl could not create a handle");
  if (!PrepareWire(request)) return Fail(wire_error_);
  ran_libcurl_ = proxied_;
  if (proxied_) return StartCurlTransfer();
  parser_.Reset(request.method == "HEAD");
  if (fd_ >= 0 && (request.fresh_connection || conn_origin_ != origin_.origin_url))
    CloseConnection();
  if (fd_ < 0) return BeginConnect();
  Send();
}

void RawLane::StartCurlTransfer() {
  CloseConnection();
  if (!curl_lane_) curl_lane_ = std::make_unique<CurlLane>(options_, /*stop_by_progress=*/false);
  if (!curl_lane_->Prepare(*request_, response_)) return Finish();
  if (curl_multi_add_handle(multi_, curl_lane_->handle()) != CURLM_OK)
    return Fail("libcurl could not start the request");
  state_ = State::kCurlTransfer;
  DriveCurl(CURL_SOCKET_TIMEOUT, 0);
}

void RawLane::BeginConnect() {
  CURL* h = connect_;
  if (connect_url_ != origin_.origin_url) {
    connect_url_ = origin_.origin_url;
    curl_easy_setopt(h, CURLOPT_URL, connect_url_.c_str());
  }
  long timeout_ms = std::max(
      1L,
      static_cast<long>(
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now()).count()));
  if (timeout_ms != timeout_ms_) {
    timeout_ms_ = timeout_ms;
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout_ms);
  }
  long connect_ms = Millis(request_->connect_timeout_s);
  if (connect_ms != connect_timeout_ms_) {
    connect_timeout_ms_ = connect_ms;
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, connect_ms);
  }
  error_[0] = '\0';
  ForgetClosedSocket();
  connected_here_ = true;
  if (curl_multi_add_handle(multi_, h) != CURLM_OK)
    return Fail("libcurl could not start the connection");
  connect_added_ = true;
  state_ = State::kConnecting;
  DriveCurl(CURL_SOCKET_TIMEOUT, 0);
}

void RawLane::DriveCurl(curl_socket_t fd, int mask) {
  int running = 0;
  curl_multi_socket_action(multi_, fd, mask, &running);
  int queued = 0;
  while (CURLMsg* msg = curl_multi_info_read(multi_, &queued)) {
    if (msg->msg != CURLMSG_DONE) continue;
    CURLcode rc = msg->data.result;
    if (state_ == State::kConnecting && msg->easy_handle == connect_) {
      ConnectDone(rc);
    } else if (state_ == State::kCurlTransfer && curl_lane_ &&
               msg->easy_handle == curl_lane_->handle()) {
      curl_multi_remove_handle(multi_, curl_lane_->handle());
      curl_lane_->Complete(rc);
      Finish();
    }
  }
}

void RawLane::ConnectDone(CURLcode rc) {
  HttpTiming& t = response_->timing;
  t.dns_s = Seconds(connect_, CURLINFO_NAMELOOKUP_TIME_T);
  t.connect_s = Seconds(connect_, CURLINFO_CONNECT_TIME_T);
  t.tls_s = Seconds(connect_, CURLINFO_APPCONNECT_TIME_T);
  if (rc != CURLE_OK) {
    // The words CurlLane uses for the same failure ("Failed to connect to ... port ...").
    response_->timed_out = rc == CURLE_OPERATION_TIMEDOUT;
    curl_multi_remove_handle(multi_, connect_);  // closes the socket: noted for this thread
    connect_added_ = false;
    response_->tls_stalled = response_->timed_out && origin_.tls() && t.tls_s <= 0 &&
                             (t.connect_s > 0 || ClosedSocketHadPeer());
    std::string message =
        CurlFailureText({rc, error_, 0, 0, response_->tls_stalled, Between(start_, Clock::now())});
    return Fail(message);
  }
  curl_socket_t fd = CURL_SOCKET_BAD;
  curl_easy_getinfo(connect_, CURLINFO_ACTIVESOCKET, &fd);
  if (fd == CURL_SOCKET_BAD) {
    curl_multi_remove_handle(multi_, connect_);
    connect_added_ = false;
    return Fail("libcurl connected but gave no socket");
  }
  fd_ = fd;
  tls_ = origin_.tls();
  conn_origin_ = origin_.origin_url;
  watched_ = 0;
  Watch(fd_, EPOLLIN);
  state_ = State::kExchanging;
  Send();
}

void RawLane::Send() {
  const std::string& body = request_->body;
  const size_t total = head_.size() + body.size();
  while (sent_ < total) {
    const char* data =
        sent_ < head_.size() ? head_.data() + sent_ : body.data() + (sent_ - head_.size());
    size_t len = sent_ < head_.size() ? head_.size() - sent_ : total - sent_;
    size_t n = 0;
    bool again = false;
    std::string failure;
    if (tls_) {
      CURLcode rc = curl_easy_send(connect_, data, len, &n);
      if (rc == CURLE_AGAIN)
        again = true;
      else if (rc != CURLE_OK)
        failure = error_[0] ? error_ : curl_easy_strerror(rc);
    } else {
      ssize_t w = ::send(fd_, data, len, MSG_NOSIGNAL);
      if (w >= 0)
        n = static_cast<size_t>(w);
      else if (errno == EAGAIN || errno == EWOULDBLOCK)
        again = true;
      else if (errno != EINTR)
        failure = fmt::format("Send failure: {}", std::strerror(errno));
    }
    if (!failure.empty()) {
      if (RetryOnNewConnection()) return;
      return Fail(failure);
    }
    if (again) {
      if (!(watched_ & EPOLLOUT)) Watch(fd_, EPOLLIN | EPOLLOUT);
      return;
    }
    sent_ += n;
  }
  if (watched_ & EPOLLOUT) Watch(fd_, EPOLLIN);
}

void RawLane::Receive() {
  for (;;) {
    size_t n = 0;
    bool again = false;
    bool eof = false;
    std::string failure;
    if (tls_) {
      CURLcode rc = curl_easy_recv(connect_, recv_buf_.data(), recv_buf_.size(), &n);
      if (rc == CURLE_AGAIN)
        again = true;
      else if (rc != CURLE_OK)
        failure = error_[0] ? error_ : curl_easy_strerror(rc);
      else
        eof = n == 0;
    } else {
      ssize_t r = ::recv(fd_, recv_buf_.data(), recv_buf_.size(), 0);
      if (r > 0)
        n = static_cast<size_t>(r);
      else if (r == 0)
        eof = true;
      else if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
        again = true;
      else
        failure = fmt::format("Recv failure: {}", std::strerror(errno));
    }
    if (again) return;
    if (!failure.empty() || eof) {
      // A reused connection the server had closed while idle answers nothing: retried once on
      // a new one, as libcurl does; anything else is the answer's fault.
      if (parser_.nothing_received() && RetryOnNewConnection()) return;
      if (!failure.empty()) return Fail(failure);
      parser_.FeedEof();
      CloseConnection();
      if (!wrong_answer_.empty()) return Fail(wrong_answer_);
      if (parser_.complete()) return FinishWhole();
      return Fail(parser_.error());
    }
    if (!got_first_byte_) {
      got_first_byte_ = true;
      response_->timing.ttfb_s = Between(start_, Clock::now());
    }
    parser_.Feed(recv_buf_.data(), n, this);
    if (parser_.failed()) {
      // A head refused as too large still carried a status line: the server answered.
      if (response_->status == 0) response_->status = parser_.status();
      if (!wrong_answer_.empty()) return Fail(wrong_answer_);
      if (over_cap_) return Fail(OverCapText(request_->max_body_bytes));
      return Fail(ParserFailureText(parser_.error()));
    }
    if (!wrong_answer_.empty()) return Fail(wrong_answer_);  // refused with no body to stop
    if (parser_.complete()) {
      if (!parser_.keep_alive() || request_->fresh_connection) CloseConnection();
      return FinishWhole();
    }
    // Plain sockets: a short read means the socket is drained (epoll is level-triggered, so
    // nothing is missed). TLS reads go on until libcurl says AGAIN: OpenSSL may hold
    // decrypted bytes that epoll cannot see.
    if (!tls_ && n < recv_buf_.size()) return;
  }
}

void RawLane::OnHead(int status, const HttpHeaders& headers) {
  response_->status = status;
  for (const auto& [name, value] : headers) response_->headers[name].assign(value);
  // Refused before any body byte is taken (OnBody stops the parser at the first one).
  wrong_answer_ = AnswerMismatch(*request_, status, headers);
}

bool RawLane::OnBody(const char* data, size_t n) {
  if (!wrong_answer_.empty()) return false;
  HttpResponse& r = *response_;
  const HttpRequest& request = *request_;
  r.body_bytes += n;
  if (r.body_bytes > request.max_body_bytes) {
    over_cap_ = true;  // more than was asked for: cut here, only the cap counted as data
    return false;
  }
  r.TakeBody(request, data, n);
  return true;
}

bool RawLane::RetryOnNewConnection() {
  if (connected_here_ || retried_ || got_first_byte_) return false;
  retried_ = true;
  CloseConnection();
  sent_ = 0;
  parser_.Reset(request_->method == "HEAD");
  BeginConnect();
  return true;
}

void RawLane::OnEvent(int fd, uint32_t events) {
  switch (state_) {
    case State::kConnecting:
    case State::kCurlTransfer: {
      int mask = (events & EPOLLIN ? CURL_CSELECT_IN : 0) |
                 (events & EPOLLOUT ? CURL_CSELECT_OUT : 0) |
                 (events & (EPOLLERR | EPOLLHUP) ? CURL_CSELECT_ERR : 0);
      DriveCurl(fd, mask);
      return;
    }
    case State::kExchanging:
      if (fd != fd_) return;  // a socket libcurl let go of during the connect
      if ((events & (EPOLLOUT | EPOLLERR)) && (watched_ & EPOLLOUT)) Send();
      if (state_ == State::kExchanging && fd_ >= 0 && (events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
        Receive();
      return;
    case State::kIdle:
    case State::kDone:
      // Readable while no request runs: the server closed (or wrote unasked). Either way the
      // connection cannot carry the next request.
      if (fd == fd_)
        CloseConnection();
      else
        epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
      return;
  }
}

void RawLane::OnTime(Clock::time_point now) {
  if ((state_ == State::kConnecting || state_ == State::kCurlTransfer) && curl_timer_set_ &&
      now >= curl_timer_due_) {
    curl_timer_set_ = false;
    DriveCurl(CURL_SOCKET_TIMEOUT, 0);
  }
  if (state_ == State::kExchanging && now >= deadline_) {
    // libcurl's wording, so timeouts read the same whichever engine ran.
    response_->timed_out = true;
    Fail(fmt::format("Operation timed out after {} milliseconds with {} bytes received",
                     std::chrono::duration_cast<std::chrono::milliseconds>(now - start_).count(),
                     response_->body_bytes));
  }
}

RawLane::Clock::time_point RawLane::NextWake() const {
  Clock::time_point wake = Clock::time_point::max();
  if ((state_ == State::kConnecting || state_ == State::kCurlTransfer) && curl_timer_set_)
    wake = curl_timer_due_;
  if (state_ == State::kExchanging || state_ == State::kConnecting)
    wake = std::min(wake, deadline_);
  return wake;
}

void RawLane::Stop() {
  if (!running()) return;
  if (state_ == State::kCurlTransfer) {
    curl_multi_remove_handle(multi_, curl_lane_->handle());
    curl_lane_->CompleteStopped();
    return Finish();
  }
  response_->stopped = true;
  Fail("stopped by a signal");
}

void RawLane::CloseConnection() {
  if (fd_ >= 0) epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd_, nullptr);
  fd_ = -1;
  watched_ = 0;
  conn_origin_.clear();
  // Removing a connect-only handle closes its connection (libcurl never reuses one).
  if (connect_added_) curl_multi_remove_handle(multi_, connect_);
  connect_added_ = false;
  curl_timer_set_ = false;
}

void RawLane::Fail(std::string message) {
  CloseConnection();
  response_->transport_error = std::move(message);
  response_->over_cap = over_cap_ && !response_->stopped;
  response_->wrong_answer = !wrong_answer_.empty() && !response_->stopped;
  Finish();
}

void RawLane::FinishWhole() {
  // A chunked 206 that ended before its Content-Range did: the same words as libcurl's lane.
  if (std::string short_answer = ShortAnswer(*request_, *response_); !short_answer.empty()) {
    wrong_answer_ = short_answer;
    return Fail(std::move(short_answer));
  }
  Finish();
}

void RawLane::Finish() {
  HttpResponse& r = *response_;
  if (!ran_libcurl_) {  // a libcurl transfer's CurlLane filled these in itself
    r.timing.total_s = Between(start_, Clock::now());
    if (r.timing.ttfb_s == 0 && got_first_byte_) r.timing.ttfb_s = r.timing.total_s;
    r.reused_connection = r.transport_error.empty() && !connected_here_;
    if (!connected_here_) r.timing.dns_s = r.timing.connect_s = r.timing.tls_s = 0;
  }
  state_ = State::kDone;
}

}  // namespace feedcheck
