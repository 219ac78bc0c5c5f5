// The raw request path (CurlRequestLoop over RawLane) against small loopback servers that do
// what nginx will not: close a kept-alive connection without saying so, answer nothing, answer
// garbage. Each server is a real TCP listener on 127.0.0.1 (an ephemeral port) run by one
// thread for one test.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <thread>

#include "probes/cleanup_registry.h"
#include "transport/curl_request_loop.h"

using namespace feedcheck;

namespace {

// Accepts connections one after another; for each, reads requests (up to the blank line) and
// lets `answer(request_number, fd)` write; false closes the connection.
class TinyServer {
 public:
  using Answer = std::function<bool(int n, int fd)>;
  explicit TinyServer(Answer answer) : answer_(std::move(answer)) {
    listener_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    socklen_t len = sizeof a;
    getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    REQUIRE(listen(listener_, 16) == 0);
    thread_ = std::thread([this] { Serve(); });
  }
  ~TinyServer() {
    stop_ = true;
    thread_.join();
    close(listener_);
  }
  std::string Url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  int connections() const { return connections_; }

 private:
  void Serve() {
    while (!stop_) {
      pollfd p{listener_, POLLIN, 0};
      if (poll(&p, 1, 50) <= 0) continue;
      int fd = accept(listener_, nullptr, nullptr);
      if (fd < 0) continue;
      ++connections_;
      std::string in;
      char buf[4096];
      bool open = true;
      while (open && !stop_) {
        pollfd q{fd, POLLIN, 0};
        if (poll(&q, 1, 50) <= 0) continue;
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0) break;
        in.append(buf, static_cast<size_t>(n));
        size_t end;
        while (open && (end = in.find("\r\n\r\n")) != std::string::npos) {
          in.erase(0, end + 4);
          open = answer_(++requests_, fd);
        }
      }
      close(fd);
    }
  }
  Answer answer_;
  int listener_ = -1;
  int port_ = 0;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<int> connections_{0};
  int requests_ = 0;
};

void Write(int fd, const std::string& s) { (void)send(fd, s.data(), s.size(), MSG_NOSIGNAL); }

// Runs `count` GETs of `url` on one lane; returns the responses.
std::vector<HttpResponse> Gets(CurlRequestLoop* loop, const std::string& url, int count,
                               double timeout_s = 10) {
  std::vector<HttpResponse> out;
  int issued = 0;
  loop->Run(
      1,
      [&](int, HttpRequest* r) {
        if (issued == count) return false;
        ++issued;
        r->url = url;
        r->timeout_s = timeout_s;
        return true;
      },
      [&](int, const HttpRequest&, const HttpResponse& resp) { out.push_back(resp); });
  return out;
}

const std::string kOk = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

}  // namespace

TEST_CASE("raw path: a kept-alive connection the server closed unannounced is retried once") {
  // Every answer claims keep-alive, then the server hangs up: each next request finds a dead
  // connection, and must still succeed on a new one rather than fail.
  TinyServer server([](int, int fd) {
    Write(fd, kOk);
    return false;
  });
  CurlRequestLoop loop;
  std::vector<HttpResponse> got = Gets(&loop, server.Url("/x"), 5);
  REQUIRE(got.size() == 5);
  for (const HttpResponse& r : got) {
    INFO(r.transport_error);
    CHECK(r.status == 200);
    CHECK(r.body_bytes == 2);
    CHECK(r.transport_error.empty());
  }
  CHECK(server.connections() == 5);
  CHECK(loop.engine() == "raw");
}

TEST_CASE("raw path: a server that never answers times out with libcurl's wording") {
  TinyServer server([](int, int) { return true; });  // reads, never writes
  CurlRequestLoop loop;
  std::vector<HttpResponse> got = Gets(&loop, server.Url("/x"), 1, 0.3);
  REQUIRE(got.size() == 1);
  CHECK(got[0].timed_out);
  CHECK(got[0].status == 0);
  CHECK(got[0].transport_error.rfind("Operation timed out after ", 0) == 0);
}

TEST_CASE("raw path: garbage, an empty reply and a short body are clear errors") {
  SECTION("garbage") {
    TinyServer server([](int, int fd) {
      Write(fd, "SSH-2.0-OpenSSH\r\n\r\n");
      return false;
    });
    CurlRequestLoop loop;
    std::vector<HttpResponse> got = Gets(&loop, server.Url("/x"), 1);
    REQUIRE(got.size() == 1);
    CHECK(got[0].status == 0);
    CHECK(got[0].transport_error == kNotHttpText);  // libcurl's path says the same
  }
  SECTION("empty reply on a new connection (no retry: it was not a reused one)") {
    TinyServer server([](int, int) { return false; });
    CurlRequestLoop loop;
    std::vector<HttpResponse> got = Gets(&loop, server.Url("/x"), 1);
    REQUIRE(got.size() == 1);
    CHECK(got[0].transport_error == "Empty reply from server");
    CHECK(server.connections() == 1);
  }
  SECTION("short body, then the next request on a new connection") {
    TinyServer server([](int n, int fd) {
      Write(fd, n == 1 ? "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc" : kOk);
      return n != 1;
    });
    CurlRequestLoop loop;
    std::vector<HttpResponse> got = Gets(&loop, server.Url("/x"), 2);
    REQUIRE(got.size() == 2);
    CHECK(got[0].status == 200);
    CHECK(got[0].transport_error == "transfer closed with 7 bytes remaining to read");
    CHECK(got[0].body_bytes == 3);
    CHECK(got[1].status == 200);
    CHECK(got[1].transport_error.empty());
  }
}

TEST_CASE("raw path: a stop ends a request waiting on a silent server at once") {
  TinyServer server([](int, int) { return true; });
  CurlRequestLoop loop;
  std::thread stopper([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    RequestStop(2);
  });
  auto t0 = std::chrono::steady_clock::now();
  std::vector<HttpResponse> got = Gets(&loop, server.Url("/x"), 3, 30);
  double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  stopper.join();
  ResetStopRequest();
  REQUIRE(got.size() == 1);  // nothing new started after the stop
  CHECK(got[0].stopped);
  CHECK(got[0].transport_error == "stopped by a signal");
  CHECK(waited < 10);  // not the 30 s timeout (bounds a hang, not a speed)
}
