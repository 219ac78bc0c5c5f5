#include "transport/curl_lane.h"

#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "core/stop_request.h"
#include "transport/answer_check.h"

namespace feedcheck {
namespace {

double Seconds(CURL* h, CURLINFO info) {
  curl_off_t us = 0;
  if (curl_easy_getinfo(h, info, &us) != CURLE_OK) return 0;
  return static_cast<double>(us) / 1e6;
}

long Millis(double seconds) { return std::max(1L, static_cast<long>(seconds * 1000.0)); }

bool HasContentType(const HttpRequest& request) {
  for (const auto& header : request.headers)
    if (strcasecmp(header.first.c_str(), "content-type") == 0) return true;
  return false;
}

bool IsHttpsUrl(const std::string& url) { return strncasecmp(url.c_str(), "https://", 8) == 0; }

}  // namespace

std::string CurlFailureText(const CurlFailure& f) {
  // libcurl refuses a header line over 100 KiB with its out-of-memory code and no message.
  if (f.rc == CURLE_OUT_OF_MEMORY && f.body_bytes == 0)
    return HeadersTooLargeText("libcurl's 100 KiB a line");
  std::string_view buffer = f.error_buffer ? f.error_buffer : "";
  if (buffer.rfind("Too large response headers", 0) == 0)
    return HeadersTooLargeText("libcurl's 300 KiB");
  // libcurl's words for an answer with no status line: "Received HTTP/0.9 when not allowed".
  if ((f.rc == CURLE_UNSUPPORTED_PROTOCOL || f.rc == CURLE_WEIRD_SERVER_REPLY) && f.status == 0)
    return std::string(kNotHttpText);
  if (f.tls_stalled) return TlsStalledText(f.elapsed_s);
  return buffer.empty() ? curl_easy_strerror(f.rc) : std::string(buffer);
}

namespace {
thread_local bool t_closed_with_peer = false;
}  // namespace

int CloseSocketNotingPeer(void*, curl_socket_t fd) {
  sockaddr_storage peer{};
  socklen_t len = sizeof peer;
  t_closed_with_peer = getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &len) == 0;
  return close(fd);
}

void ForgetClosedSocket() { t_closed_with_peer = false; }

bool ClosedSocketHadPeer() { return t_closed_with_peer; }

CurlLane::CurlLane(const CurlClientOptions& options, bool stop_by_progress) {
  EnsureCurlGlobalInit();
  handle_ = curl_easy_init();
  if (!handle_) return;
  CURL* h = handle_;
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);  // threads: no SIGALRM for DNS timeouts
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_);
  curl_easy_setopt(h, CURLOPT_BUFFERSIZE, options.buffer_bytes);
  curl_easy_setopt(h, CURLOPT_TCP_NODELAY, 1L);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, &CurlLane::OnHeader);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, this);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &CurlLane::OnBody);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, this);
  curl_easy_setopt(h, CURLOPT_READFUNCTION, &CurlLane::OnUpload);
  curl_easy_setopt(h, CURLOPT_READDATA, this);
  if (stop_by_progress) {
    curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, &CurlLane::OnProgress);
    curl_easy_setopt(h, CURLOPT_XFERINFODATA, this);
  }
  curl_easy_setopt(h, CURLOPT_PRIVATE, this);
  curl_easy_setopt(h, CURLOPT_CLOSESOCKETFUNCTION, &CloseSocketNotingPeer);
  if (options.no_proxy) curl_easy_setopt(h, CURLOPT_NOPROXY, "*");
  const TlsOptions& tls = options.tls;
  if (!tls.ca_file.empty()) curl_easy_setopt(h, CURLOPT_CAINFO, tls.ca_file.c_str());
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, tls.insecure ? 0L : 1L);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, tls.insecure ? 0L : 2L);
}

CurlLane::~CurlLane() {
  if (handle_) curl_easy_cleanup(handle_);
  curl_slist_free_all(header_list_);
}

bool CurlLane::Prepare(const HttpRequest& request, HttpResponse* response) {
  response->Clear();
  request_ = &request;
  response_ = response;
  over_cap_ = false;
  stopped_ = false;
  wrong_answer_.clear();
  ForgetClosedSocket();
  upload_offset_ = 0;
  error_[0] = '\0';
  if (!handle_) {
    response->transport_error = "libcurl could not create a handle";
    return false;
  }
  CURL* h = handle_;
  if (request.url != url_) {
    url_ = request.url;
    curl_easy_setopt(h, CURLOPT_URL, url_.c_str());
  }
  long timeout_ms = Millis(request.timeout_s);
  if (timeout_ms != timeout_ms_) {
    timeout_ms_ = timeout_ms;
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout_ms);
  }
  long connect_ms = Millis(request.connect_timeout_s);
  if (connect_ms != connect_timeout_ms_) {
    connect_timeout_ms_ = connect_ms;
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, connect_ms);
  }
  if (request.fresh_connection != fresh_) {
    fresh_ = request.fresh_connection;
    curl_easy_setopt(h, CURLOPT_FRESH_CONNECT, fresh_ ? 1L : 0L);
    curl_easy_setopt(h, CURLOPT_FORBID_REUSE, fresh_ ? 1L : 0L);
  }
  SetMethod(request);
  SetHeaders(request);
  return true;
}

void CurlLane::SetMethod(const HttpRequest& request) {
  CURL* h = handle_;
  const std::string& m = request.method;
  bool simple = m == "GET" || m == "HEAD";
  // A GET after a GET (or HEAD after HEAD) needs nothing; anything else starts from a GET.
  if (simple && m == method_ && !method_has_body_) return;
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, nullptr);
  curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(-1));
  curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, nullptr);
  curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);  // clears NOBODY, UPLOAD and POST
  method_ = m;
  method_has_body_ = false;
  if (m == "HEAD") {
    curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
  } else if (m == "PUT") {
    curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    method_has_body_ = true;  // the size is the request's: set again next time
  } else if (m != "GET") {
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, m.c_str());
    if (!request.body.empty()) {
      curl_easy_setopt(h, CURLOPT_POSTFIELDS, request.body.data());
      curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE,
                       static_cast<curl_off_t>(request.body.size()));
    }
    method_has_body_ = true;  // points at this request's body: set again next time
  }
}

void CurlLane::SetHeaders(const HttpRequest& request) {
  // libcurl would add a form content type to a body, which would break a Shared Key signature.
  bool blank_content_type = !request.body.empty() && request.method != "PUT" &&
                            request.method != "GET" && request.method != "HEAD" &&
                            !HasContentType(request);
  if (headers_set_ && blank_content_type == headers_content_type_ && request.headers == headers_)
    return;
  curl_slist* list = nullptr;
  std::string line;
  for (const auto& [name, value] : request.headers) {
    line.assign(name);
    if (value.empty()) {
      line += ';';
    } else {
      line += ": ";
      line += value;
    }
    list = curl_slist_append(list, line.c_str());
  }
  list = curl_slist_append(list, "Expect:");  // no 100-continue round trip on PUT
  list = curl_slist_append(list, "Accept:");
  if (blank_content_type) list = curl_slist_append(list, "Content-Type:");
  curl_easy_setopt(handle_, CURLOPT_HTTPHEADER, list);
  curl_slist_free_all(header_list_);
  header_list_ = list;
  headers_ = request.headers;
  headers_content_type_ = blank_content_type;
  headers_set_ = true;
}

size_t CurlLane::OnHeader(char* data, size_t size, size_t count, void* user) {
  auto* lane = static_cast<CurlLane*>(user);
  size_t n = size * count;
  std::string_view line(data, n);
  if (line.rfind("HTTP/", 0) == 0) {
    // A new status line (after 100 Continue or a proxy answer): headers start over.
    lane->response_->headers.clear();
    return n;
  }
  if (line == "\r\n" || line == "\n") {
    // The end of a head: a final one must be able to answer the request before any body byte
    // is taken (returning 0 aborts the transfer).
    long status = 0;
    curl_easy_getinfo(lane->handle_, CURLINFO_RESPONSE_CODE, &status);
    if (status >= 200) {
      lane->wrong_answer_ =
          AnswerMismatch(*lane->request_, static_cast<int>(status), lane->response_->headers);
      if (!lane->wrong_answer_.empty()) return 0;
    }
    return n;
  }
  size_t colon = line.find(':');
  if (colon == std::string_view::npos) return n;
  lane->response_->headers.Set(line.substr(0, colon), line.substr(colon + 1));
  return n;
}

// libcurl calls this at least once a second and on every chunk; a non-zero return aborts.
int CurlLane::OnProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* lane = static_cast<CurlLane*>(user);
  if (!lane->request_->stoppable || !StopRequested()) return 0;
  lane->stopped_ = true;
  return 1;
}

size_t CurlLane::OnBody(char* data, size_t size, size_t count, void* user) {
  auto* lane = static_cast<CurlLane*>(user);
  size_t n = size * count;
  HttpResponse& r = *lane->response_;
  const HttpRequest& request = *lane->request_;
  // The status is known before the first body byte.
  if (r.status == 0) {
    long status = 0;
    curl_easy_getinfo(lane->handle_, CURLINFO_RESPONSE_CODE, &status);
    r.status = static_cast<int>(status);
  }
  r.body_bytes += n;
  if (r.body_bytes > request.max_body_bytes) {
    // Aborted the moment the body passes what was asked for (a 206 larger than its range, an
    // endless chunked listing): reported as a transport error, only the cap counted as data.
    lane->over_cap_ = true;
    return 0;
  }
  r.TakeBody(request, data, n);
  return n;
}

size_t CurlLane::OnUpload(char* buffer, size_t size, size_t count, void* user) {
  auto* lane = static_cast<CurlLane*>(user);
  const std::string& body = lane->request_->body;
  size_t n = std::min(size * count, body.size() - lane->upload_offset_);
  std::memcpy(buffer, body.data() + lane->upload_offset_, n);
  lane->upload_offset_ += n;
  return n;
}

void CurlLane::Complete(CURLcode rc) {
  HttpResponse& response = *response_;
  const HttpRequest& request = *request_;
  CURL* h = handle_;
  long status = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  response.status = static_cast<int>(status);
  response.timing.dns_s = Seconds(h, CURLINFO_NAMELOOKUP_TIME_T);
  response.timing.connect_s = Seconds(h, CURLINFO_CONNECT_TIME_T);
  response.timing.tls_s = Seconds(h, CURLINFO_APPCONNECT_TIME_T);
  response.timing.ttfb_s = Seconds(h, CURLINFO_STARTTRANSFER_TIME_T);
  response.timing.total_s = Seconds(h, CURLINFO_TOTAL_TIME_T);
  if (rc == CURLE_OK) {
    // A chunked 206 that ended before its Content-Range did: not the range, not retried.
    if (std::string short_answer = ShortAnswer(request, response); !short_answer.empty()) {
      response.wrong_answer = true;
      response.transport_error = std::move(short_answer);
    }
  }
  if (rc != CURLE_OK) {
    response.timed_out = rc == CURLE_OPERATION_TIMEDOUT;
    response.stopped = stopped_;
    response.over_cap = over_cap_ && !stopped_;
    response.tls_stalled = response.timed_out && status == 0 && IsHttpsUrl(url_) &&
                           response.timing.tls_s <= 0 &&
                           (response.timing.connect_s > 0 || ClosedSocketHadPeer());
    if (stopped_) {
      response.transport_error = "stopped by a signal";
    } else if (!wrong_answer_.empty()) {
      response.wrong_answer = true;
      response.transport_error = wrong_answer_;
    } else if (over_cap_) {
      response.transport_error = OverCapText(request.max_body_bytes);
    } else {
      response.transport_error =
          CurlFailureText({rc, error_, static_cast<int>(status), response.body_bytes,
                           response.tls_stalled, response.timing.total_s});
    }
  }
  long connects = 0;
  curl_easy_getinfo(h, CURLINFO_NUM_CONNECTS, &connects);
  response.reused_connection = rc == CURLE_OK && connects == 0;
  if (response.reused_connection) {
    response.timing.connect_s = 0;
    response.timing.tls_s = 0;
  }
}

void CurlLane::CompleteStopped() {
  stopped_ = true;
  Complete(CURLE_ABORTED_BY_CALLBACK);
}

}  // namespace feedcheck
