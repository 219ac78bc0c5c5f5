// One libcurl easy handle set up once and reused for request after request: the options every
// request shares (callbacks, buffer, TLS, protocols) are set when the lane is made, and each
// request sets only what differs from the previous one (URL, headers, method, timeouts). Both
// CurlHttpClient (one blocking request) and CurlRequestLoop (many in flight on one thread) run
// their transfers through lanes, so the callbacks, caps and error reporting are the same.
#pragma once

#include <curl/curl.h>

#include <string>
#include <utility>
#include <vector>

#include "transport/curl_http_client.h"
#include "transport/http_client.h"

namespace feedcheck {

/// A failed libcurl transfer or connect, for CurlFailureText.
struct CurlFailure {
  CURLcode rc = CURLE_OK;
  const char* error_buffer = "";  ///< CURLOPT_ERRORBUFFER's text, may be empty
  int status = 0;                 ///< the status line's code, 0 when none arrived
  uint64_t body_bytes = 0;
  bool tls_stalled = false;  ///< timed out after the TCP connect, before the TLS handshake ended
  double elapsed_s = 0;
};

/// libcurl's failure in the words both engines use (http_client.h): a header past libcurl's
/// limits, an answer that is not HTTP, a TLS handshake that never came; otherwise libcurl's own
/// message.
std::string CurlFailureText(const CurlFailure& failure);

/// CURLOPT_CLOSESOCKETFUNCTION that notes, for the calling thread, whether the socket it closes
/// had a TCP peer: libcurl 7.88 reports no connect time until TLS is done too, so this is how a
/// TLS handshake that stalled after the TCP connect is told from a connect that never came. A
/// thread-local note, not a pointer into a lane: a pooled connection may be closed after the
/// handle (and lane) that opened it is gone.
int CloseSocketNotingPeer(void* unused, curl_socket_t fd);
/// Forgets the note (before a transfer or a connect).
void ForgetClosedSocket();
/// The socket this thread's libcurl closed last had a TCP peer (since ForgetClosedSocket).
bool ClosedSocketHadPeer();

class CurlLane {
 public:
  /// `stop_by_progress`: abort on a stop request from libcurl's progress callback. A blocking
  /// perform needs it; an event loop checks for stops itself and saves the callback's cost.
  CurlLane(const CurlClientOptions& options, bool stop_by_progress);
  ~CurlLane();
  CurlLane(const CurlLane&) = delete;
  CurlLane& operator=(const CurlLane&) = delete;

  CURL* handle() const { return handle_; }
  /// The owner's number for this lane (CURLOPT_PRIVATE leads back to the lane).
  int index() const { return index_; }
  void set_index(int index) { index_ = index; }

  /// Points the handle at `request`, answering into `response` (cleared, its storage kept).
  /// Both must outlive the transfer. False (and the response says why) when no handle exists.
  bool Prepare(const HttpRequest& request, HttpResponse* response);
  /// Fills in status, error and timing once the transfer has ended with `rc`.
  void Complete(CURLcode rc);
  /// Ends a transfer that the caller aborted because a stop was requested.
  void CompleteStopped();

 private:
  static size_t OnHeader(char* data, size_t size, size_t count, void* user);
  static size_t OnBody(char* data, size_t size, size_t count, void* user);
  static size_t OnUpload(char* buffer, size_t size, size_t count, void* user);
  static int OnProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t);
  void SetMethod(const HttpRequest& request);
  void SetHeaders(const HttpRequest& request);

  CURL* handle_ = nullptr;
  int index_ = 0;
  char error_[CURL_ERROR_SIZE] = {};
  const HttpRequest* request_ = nullptr;
  HttpResponse* response_ = nullptr;
  bool over_cap_ = false;
  bool stopped_ = false;
  std::string wrong_answer_;  ///< AnswerMismatch's words when the head was refused
  size_t upload_offset_ = 0;

  // What the handle is set to now, so an unchanged request sets nothing again.
  std::string url_;
  std::string method_ = "GET";
  bool method_has_body_ = false;
  std::vector<std::pair<std::string, std::string>> headers_;
  bool headers_set_ = false;
  bool headers_content_type_ = false;
  curl_slist* header_list_ = nullptr;
  long timeout_ms_ = -1;
  long connect_timeout_ms_ = -1;
  bool fresh_ = false;
};

}  // namespace feedcheck
