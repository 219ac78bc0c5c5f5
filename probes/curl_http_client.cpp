#include "probes/curl_http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <mutex>

#include "core/ascii_text.h"
#include "probes/cleanup_registry.h"

namespace feedcheck {
namespace {

constexpr uint64_t kErrorBodyBytes = 64 * 1024;

struct Transfer {
  CURL* handle = nullptr;
  const HttpRequest* request = nullptr;
  HttpResponse* response = nullptr;
  bool over_cap = false;
  bool stopped = false;
  size_t upload_offset = 0;
};

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  size_t n = size * count;
  std::string_view line(data, n);
  if (line.rfind("HTTP/", 0) == 0) {
    // A new status line (after 100 Continue or a proxy answer): headers start over.
    t->response->headers.clear();
    return n;
  }
  size_t colon = line.find(':');
  if (colon == std::string_view::npos) return n;
  std::string name(line.substr(0, colon));
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  t->response->headers[std::string(Trim(name))] = Trim(line.substr(colon + 1));
  return n;
}

// libcurl calls this at least once a second and on every chunk; a non-zero return aborts.
int OnProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* t = static_cast<Transfer*>(user);
  if (!t->request->stoppable || !StopRequested()) return 0;
  t->stopped = true;
  return 1;
}

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  size_t n = size * count;
  HttpResponse& r = *t->response;
  // The status is known before the first body byte.
  if (r.status == 0) {
    long status = 0;
    curl_easy_getinfo(t->handle, CURLINFO_RESPONSE_CODE, &status);
    r.status = static_cast<int>(status);
  }
  r.body_bytes += n;
  if (r.body_bytes > t->request->max_body_bytes) {
    // Aborted the moment the body passes what was asked for (a 206 larger than its range, an
    // endless chunked listing): reported as a transport error, only the cap counted as data.
    t->over_cap = true;
    return 0;
  }
  // Only a success body is data: a 403's error XML is not a byte read from the object.
  if (t->request->body_counter && r.status / 100 == 2)
    t->request->body_counter->fetch_add(n, std::memory_order_relaxed);
  if (t->request->keep_body) {
    r.body.append(data, n);
  } else if (r.body.size() < kErrorBodyBytes) {
    // Keep error bodies for classification.
    if (r.status >= 400) {
      size_t room = static_cast<size_t>(kErrorBodyBytes - r.body.size());
      r.body.append(data, std::min(room, n));
    }
  }
  return n;
}

size_t OnUpload(char* buffer, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const std::string& body = t->request->body;
  size_t n = std::min(size * count, body.size() - t->upload_offset);
  std::memcpy(buffer, body.data() + t->upload_offset, n);
  t->upload_offset += n;
  return n;
}

double Seconds(CURL* h, CURLINFO info) {
  curl_off_t us = 0;
  if (curl_easy_getinfo(h, info, &us) != CURLE_OK) return 0;
  return static_cast<double>(us) / 1e6;
}

long Millis(double seconds) { return std::max(1L, static_cast<long>(seconds * 1000.0)); }

}  // namespace

void EnsureCurlGlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct CurlHttpClient::Impl {
  CURL* handle = nullptr;
  CurlClientOptions options;
  char error[CURL_ERROR_SIZE] = {};
};

CurlHttpClient::CurlHttpClient(CurlClientOptions options) : impl_(std::make_unique<Impl>()) {
  EnsureCurlGlobalInit();
  impl_->handle = curl_easy_init();
  impl_->options = std::move(options);
}

CurlHttpClient::~CurlHttpClient() {
  if (impl_->handle) curl_easy_cleanup(impl_->handle);
}

HttpResponse CurlHttpClient::Perform(const HttpRequest& request) {
  HttpResponse response;
  CURL* h = impl_->handle;
  if (!h) {
    response.transport_error = "libcurl could not create a handle";
    return response;
  }
  // Reset drops every option of the previous request but keeps the connection and DNS caches,
  // so the next request reuses the connection unless it asks for a fresh one.
  curl_easy_reset(h);
  Transfer transfer{h, &request, &response};
  impl_->error[0] = '\0';

  curl_easy_setopt(h, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);  // threads: no SIGALRM for DNS timeouts
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, impl_->error);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, Millis(request.timeout_s));
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, Millis(request.connect_timeout_s));
  curl_easy_setopt(h, CURLOPT_BUFFERSIZE, impl_->options.buffer_bytes);
  curl_easy_setopt(h, CURLOPT_TCP_NODELAY, 1L);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, &OnHeader);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &transfer);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &OnBody);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, &OnProgress);
  curl_easy_setopt(h, CURLOPT_XFERINFODATA, &transfer);
  const TlsOptions& tls = impl_->options.tls;
  if (!tls.ca_file.empty()) curl_easy_setopt(h, CURLOPT_CAINFO, tls.ca_file.c_str());
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, tls.insecure ? 0L : 1L);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, tls.insecure ? 0L : 2L);
  if (request.fresh_connection) {
    curl_easy_setopt(h, CURLOPT_FRESH_CONNECT, 1L);
    curl_easy_setopt(h, CURLOPT_FORBID_REUSE, 1L);
  }

  curl_slist* headers = nullptr;
  bool has_content_type = false;
  for (const auto& [name, value] : request.headers) {
    if (strcasecmp(name.c_str(), "content-type") == 0) has_content_type = true;
    std::string line = value.empty() ? name + ";" : name + ": " + value;
    headers = curl_slist_append(headers, line.c_str());
  }
  headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip on PUT
  headers = curl_slist_append(headers, "Accept:");

  if (request.method == "HEAD") {
    curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
  } else if (request.method == "PUT") {
    curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(h, CURLOPT_READFUNCTION, &OnUpload);
    curl_easy_setopt(h, CURLOPT_READDATA, &transfer);
    curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  } else if (request.method != "GET") {
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    if (!request.body.empty()) {
      curl_easy_setopt(h, CURLOPT_POSTFIELDS, request.body.data());
      curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE,
                       static_cast<curl_off_t>(request.body.size()));
      // libcurl would add a form content type, which would break a Shared Key signature.
      if (!has_content_type) headers = curl_slist_append(headers, "Content-Type:");
    }
  }
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);

  CURLcode rc = curl_easy_perform(h);
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, nullptr);
  curl_slist_free_all(headers);

  long status = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  response.status = static_cast<int>(status);
  if (rc != CURLE_OK) {
    response.timed_out = rc == CURLE_OPERATION_TIMEDOUT;
    response.stopped = transfer.stopped;
    response.over_cap = transfer.over_cap && !transfer.stopped;
    if (transfer.stopped) {
      response.transport_error = "stopped by a signal";
    } else if (transfer.over_cap) {
      response.transport_error =
          "response body larger than the " + std::to_string(request.max_body_bytes) + "-byte cap";
    } else {
      response.transport_error = impl_->error[0] ? impl_->error : curl_easy_strerror(rc);
    }
  }
  response.timing.dns_s = Seconds(h, CURLINFO_NAMELOOKUP_TIME_T);
  response.timing.connect_s = Seconds(h, CURLINFO_CONNECT_TIME_T);
  response.timing.tls_s = Seconds(h, CURLINFO_APPCONNECT_TIME_T);
  response.timing.ttfb_s = Seconds(h, CURLINFO_STARTTRANSFER_TIME_T);
  response.timing.total_s = Seconds(h, CURLINFO_TOTAL_TIME_T);
  long connects = 0;
  curl_easy_getinfo(h, CURLINFO_NUM_CONNECTS, &connects);
  response.reused_connection = rc == CURLE_OK && connects == 0;
  if (response.reused_connection) {
    response.timing.connect_s = 0;
    response.timing.tls_s = 0;
  }
  return response;
}

}  // namespace feedcheck
