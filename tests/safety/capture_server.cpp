#include "tests/safety/capture_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>

namespace feedcheck::testing {

CaptureServer::CaptureServer(const std::string& address, int port, Handler handler)
    : address_(address), handler_(std::move(handler)) {
  bool v6 = address.find(':') != std::string::npos;
  listen_fd_ = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  REQUIRE(listen_fd_ >= 0);
  int one = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_storage ss{};
  socklen_t len = 0;
  if (v6) {
    auto* a = reinterpret_cast<sockaddr_in6*>(&ss);
    a->sin6_family = AF_INET6;
    a->sin6_port = htons(static_cast<uint16_t>(port));
    REQUIRE(inet_pton(AF_INET6, address.c_str(), &a->sin6_addr) == 1);
    len = sizeof *a;
  } else {
    auto* a = reinterpret_cast<sockaddr_in*>(&ss);
    a->sin_family = AF_INET;
    a->sin_port = htons(static_cast<uint16_t>(port));
    REQUIRE(inet_pton(AF_INET, address.c_str(), &a->sin_addr) == 1);
    len = sizeof *a;
  }
  INFO("bind " << address << ":" << port << ": " << std::strerror(errno));
  REQUIRE(bind(listen_fd_, reinterpret_cast<sockaddr*>(&ss), len) == 0);
  REQUIRE(listen(listen_fd_, 64) == 0);
  len = sizeof ss;
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&ss), &len);
  port_ = ntohs(v6 ? reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port
                   : reinterpret_cast<sockaddr_in*>(&ss)->sin_port);
  acceptor_ = std::thread([this] { Serve(); });
}

CaptureServer::~CaptureServer() {
  stop_ = true;
  acceptor_.join();
  for (auto& w : workers_) w.join();
  close(listen_fd_);
}

std::string CaptureServer::Url() const {
  bool v6 = address_.find(':') != std::string::npos;
  return "http://" + (v6 ? "[" + address_ + "]" : address_) + ":" + std::to_string(port_);
}

std::string CaptureServer::Heads() const {
  std::lock_guard<std::mutex> lock(mu_);
  return heads_;
}

std::string CaptureServer::Answer(int status, const std::string& body, const std::string& headers) {
  return "HTTP/1.1 " + std::to_string(status) +
         " X\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" + headers + "\r\n" + body;
}

void CaptureServer::Serve() {
  while (!stop_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (poll(&p, 1, 50) <= 0) continue;
    int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    ++connections_;
    workers_.emplace_back([this, fd] { ServeOne(fd); });
  }
}

void CaptureServer::ServeOne(int fd) {
  std::string buffer;
  char chunk[4096];
  while (!stop_) {
    size_t end = buffer.find("\r\n\r\n");
    if (end != std::string::npos) {
      std::string head = buffer.substr(0, end + 4);
      buffer.erase(0, end + 4);
      {
        std::lock_guard<std::mutex> lock(mu_);
        heads_ += head;
      }
      std::string answer = handler_ ? handler_(head) : "";
      if (answer == kHang) {
        while (!stop_) usleep(20000);
        break;
      }
      if (answer.empty()) break;
      if (send(fd, answer.data(), answer.size(), MSG_NOSIGNAL) < 0) break;
      continue;
    }
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 50) <= 0) continue;
    ssize_t n = recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) break;
    buffer.append(chunk, static_cast<size_t>(n));
    if (buffer.size() > (1 << 20)) break;
  }
  close(fd);
}

}  // namespace feedcheck::testing
