// Starts a fault_server child on an ephemeral loopback port for one test and stops it (SIGTERM,
// then waitpid) when the test ends; reads its request and byte counters.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace feedcheck::testing {

struct ServerStats {
  uint64_t requests = 0;              ///< answered requests, /__stats excluded
  uint64_t body_bytes = 0;            ///< response body bytes the server sent
  uint64_t upload_bytes = 0;          ///< request body bytes it received (fault-store PUTs)
  uint64_t silent_connections = 0;    ///< connections accepted on the silent port
  std::map<int, uint64_t> by_status;  ///< answers by HTTP status
  bool ok = false;                    ///< false when the stats could not be read
};

class FaultServerProcess {
 public:
  /// Starts `binary` with `extra_args`; REQUIREs (Catch2) that it listens within 5 s.
  explicit FaultServerProcess(const std::string& binary, std::vector<std::string> extra_args = {});
  ~FaultServerProcess();
  FaultServerProcess(const FaultServerProcess&) = delete;
  FaultServerProcess& operator=(const FaultServerProcess&) = delete;

  int port() const { return port_; }
  /// http://127.0.0.1:PORT + path
  std::string Url(const std::string& path) const;
  /// SCHEME://127.0.0.1:SILENT_PORT + path: a port that accepts and then never reads or
  /// answers (with "https", a TLS handshake that stalls).
  std::string SilentUrl(const std::string& scheme, const std::string& path) const;
  ServerStats Stats() const;

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  int silent_port_ = 0;
  std::string port_file_;
};

}  // namespace feedcheck::testing
