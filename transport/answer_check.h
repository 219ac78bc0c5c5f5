// Whether a response head can be the answer to the request it came back on: both HTTP engines
// ask before they take a body byte, so nothing of a wrong answer is ever counted as data.
#pragma once

#include <mutex>
#include <string>

#include "transport/http_client.h"

namespace feedcheck {

/// Why a final response head cannot answer `request`, in one line for the user; empty when it
/// can. Only success answers (2xx) are checked: an error body is never data. Refused:
/// - more body announced (Content-Length) than request.max_body_bytes (a 200 that ignores the
///   Range, announcing the whole object);
/// - a 206 whose Content-Range is not the Range (or x-ms-range) asked for;
/// - a Content-Encoding other than identity (the request sends no Accept-Encoding) on a body
///   that is not exactly the length asked for: encoded on the way, so not the object's bytes.
///   A blob saved with a Content-Encoding comes back as stored, at the length asked for: that
///   one passes.
/// - a 206 whose Content-Length is not the length of its own Content-Range (an empty body
///   claiming 4 KiB).
std::string AnswerMismatch(const HttpRequest& request, int status, const HttpHeaders& headers);

/// Why a completed answer is not whole, when its length was not announced (chunked): a 206 whose
/// body ended before the end of its Content-Range. Empty when whole, or when it already failed.
/// Both engines ask when a transfer ends, and fail the request with these words.
std::string ShortAnswer(const HttpRequest& request, const HttpResponse& response);

/// The first answer of a run that could not be the one asked for, shared by the threads of a
/// probe: no request starts after it, since each would get the same and may cost the server its
/// whole send buffer.
class WrongAnswerLatch {
 public:
  /// Its words; empty until one came.
  std::string First() {
    std::lock_guard<std::mutex> lock(mu_);
    return first_;
  }
  void Set(const std::string& words) {
    std::lock_guard<std::mutex> lock(mu_);
    if (first_.empty()) first_ = words;
  }

 private:
  std::mutex mu_;
  std::string first_;
};

}  // namespace feedcheck
