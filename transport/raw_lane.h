// One connection of CurlRequestLoop driven without libcurl's per-request work: libcurl opens
// it (name resolution, connect, proxies, TLS with the same CA and verification options as
// CurlLane: CURLOPT_CONNECT_ONLY on a multi handle of the lane's own, so connect time stays
// measurable and nothing blocks), then the lane writes prebuilt HTTP/1.1 requests and parses
// the answers itself (http_request_writer.h, http_response_parser.h). Over TLS the bytes go
// through curl_easy_send/curl_easy_recv; over plain http straight to the socket. A request
// libcurl would send through a proxy from the environment runs as a whole libcurl transfer on
// a CurlLane instead (the same multi handle and epoll set), and the lane says which ran.
//
// The lane registers its sockets in the loop's epoll set with the key EpollKey(lane, fd); the
// loop hands each event back through OnEvent and calls OnTime when NextWake has passed.
#pragma once

#include <curl/curl.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "transport/curl_http_client.h"
#include "transport/http_client.h"
#include "transport/http_request_writer.h"
#include "transport/http_response_parser.h"

namespace feedcheck {

class CurlLane;

class RawLane : private HttpResponseSink {
 public:
  using Clock = std::chrono::steady_clock;

  static uint64_t EpollKey(int lane, int fd) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(lane)) << 32) | static_cast<uint32_t>(fd);
  }
  static int LaneOfKey(uint64_t key) { return static_cast<int>(key >> 32); }
  static int FdOfKey(uint64_t key) { return static_cast<int>(static_cast<uint32_t>(key)); }

  RawLane(const CurlClientOptions& options, int epoll_fd, int index);
  ~RawLane() override;
  RawLane(const RawLane&) = delete;
  RawLane& operator=(const RawLane&) = delete;

  /// Starts `request`, answering into `response` (cleared, its storage kept); both must
  /// outlive it. The request may have ended at once (finished()).
  void Start(const HttpRequest& request, HttpResponse* response);
  /// An epoll event on one of this lane's sockets (also when no request is running: an idle
  /// connection the server closed is dropped here).
  void OnEvent(int fd, uint32_t events);
  /// Timers: libcurl's during a connect or a libcurl transfer, and the request's deadline.
  void OnTime(Clock::time_point now);
  /// When OnTime is next needed; Clock::time_point::max() when never.
  Clock::time_point NextWake() const;
  /// Ends the running request because a stop was requested (SIGINT/SIGTERM).
  void Stop();

  bool running() const { return state_ != State::kIdle && state_ != State::kDone; }
  /// The request has ended; Collect() makes the lane idle again.
  bool finished() const { return state_ == State::kDone; }
  void Collect() { state_ = State::kIdle; }
  /// The last request ran as a whole libcurl transfer (a proxy), not on the raw path.
  bool ran_libcurl() const { return ran_libcurl_; }

 private:
  enum class State { kIdle, kConnecting, kCurlTransfer, kExchanging, kDone };

  static int OnSocket(CURL*, curl_socket_t fd, int what, void* user, void* socket_data);
  static int OnTimer(CURLM*, long timeout_ms, void* user);
  void OnHead(int status, const HttpHeaders& headers) override;
  bool OnBody(const char* data, size_t size) override;

  bool PrepareWire(const HttpRequest& request);
  void BeginConnect();
  void StartCurlTransfer();
  void DriveCurl(curl_socket_t fd, int mask);
  void ConnectDone(CURLcode rc);
  void Send();
  void Receive();
  /// A reused connection died before any answer: once per request, on a new connection.
  bool RetryOnNewConnection();
  void CloseConnection();
  void Watch(int fd, uint32_t events);
  void Fail(std::string message);
  void Finish();
  void FinishWhole();  // Finish, unless the body is shorter than its Content-Range (Fail)

  CurlClientOptions options_;
  int epoll_fd_;
  int index_;
  State state_ = State::kIdle;
  CURLM* multi_ = nullptr;
  CURL* connect_ = nullptr;  ///< the CONNECT_ONLY handle, in multi_ while its connection lives
  bool connect_added_ = false;
  char error_[CURL_ERROR_SIZE] = {};
  std::unique_ptr<CurlLane> curl_lane_;  ///< for requests through a proxy, made when needed
  bool curl_timer_set_ = false;
  Clock::time_point curl_timer_due_;
  bool ran_libcurl_ = false;

  // The connection.
  int fd_ = -1;
  bool tls_ = false;
  std::string conn_origin_;  ///< origin_url it goes to
  uint32_t watched_ = 0;     ///< epoll events registered for fd_

  // The request in flight.
  const HttpRequest* request_ = nullptr;
  HttpResponse* response_ = nullptr;
  Clock::time_point start_;
  Clock::time_point deadline_;
  bool connected_here_ = false;  ///< this request opened the connection
  bool retried_ = false;
  bool got_first_byte_ = false;
  bool over_cap_ = false;
  std::string wrong_answer_;  ///< AnswerMismatch's words when the head was refused
  size_t sent_ = 0;           ///< of head_ then the request's body
  HttpResponseParser parser_;
  std::string recv_buf_;

  // The request head as last built, rebuilt only when the request changed.
  std::string head_;
  HttpOrigin origin_;
  bool proxied_ = false;
  std::string wire_method_;
  std::string wire_url_;
  std::vector<std::pair<std::string, std::string>> wire_headers_;
  size_t wire_body_size_ = 0;
  bool wire_valid_ = false;
  std::string wire_error_;
  long timeout_ms_ = -1;
  long connect_timeout_ms_ = -1;
  std::string connect_url_;
};

}  // namespace feedcheck
