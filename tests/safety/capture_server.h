// A loopback listener for the credential tests: it records every connection and the head of
// every request it receives, and answers with what the test says (or never answers). Used as a
// capture proxy that must see nothing, a fake instance metadata endpoint, and a server on an
// address that must never be reached (inside the test's own network namespace).
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace feedcheck::testing {

class CaptureServer {
 public:
  /// The answer to one request head ("" = close without answering; kHang = keep the connection
  /// open and say nothing until the server stops).
  using Handler = std::function<std::string(const std::string& head)>;
  static constexpr const char* kHang = "\x01hang";

  /// Listens on `address` ("127.0.0.1", "::1", "192.0.2.10", ...) at `port` (0: any). REQUIREs
  /// (Catch2) that it could.
  CaptureServer(const std::string& address, int port, Handler handler);
  ~CaptureServer();
  CaptureServer(const CaptureServer&) = delete;
  CaptureServer& operator=(const CaptureServer&) = delete;

  int port() const { return port_; }
  /// "http://ADDRESS:PORT" (IPv6 in brackets).
  std::string Url() const;
  int connections() const { return connections_.load(); }
  /// Every request head received so far, concatenated.
  std::string Heads() const;

  /// An HTTP/1.1 answer with `status`, the given extra header lines and `body`.
  static std::string Answer(int status, const std::string& body, const std::string& headers = "");

 private:
  void Serve();
  void ServeOne(int fd);

  std::string address_;
  int listen_fd_ = -1;
  int port_ = 0;
  Handler handler_;
  std::atomic<bool> stop_{false};
  std::atomic<int> connections_{0};
  mutable std::mutex mu_;
  std::string heads_;
  std::vector<std::thread> workers_;
  std::thread acceptor_;
};

}  // namespace feedcheck::testing
