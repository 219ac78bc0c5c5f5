#include "transport/http_errors.h"

#include <catch2/catch.hpp>

using namespace feedcheck;

namespace {
HttpResponse Busy(const std::string& message) {
  HttpResponse r;
  r.status = 503;
  r.headers["x-ms-error-code"] = "ServerBusy";
  r.body = "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>ServerBusy</Code><Message>" +
           message + "\nRequestId:0f1e\nTime:2026-11-22T03:00:00Z</Message></Error>";
  return r;
}
}  // namespace

TEST_CASE("503 ServerBusy is classified by its message") {
  CHECK(ClassifyResponse(Busy("Egress is over the account limit.")) ==
        ErrorClass::kThrottledEgress);
  CHECK(ClassifyResponse(Busy("Operations per second is over the account limit.")) ==
        ErrorClass::kThrottledRequests);
  CHECK(ClassifyResponse(Busy("Ingress is over the account limit.")) ==
        ErrorClass::kThrottledIngress);
  CHECK(ClassifyResponse(Busy("The server is busy.")) == ErrorClass::kServerBusy);
  HttpResponse head_503;  // HEAD: no body, only the header
  head_503.status = 503;
  head_503.headers["x-ms-error-code"] = "ServerBusy";
  CHECK(ClassifyResponse(head_503) == ErrorClass::kServerBusy);
}

TEST_CASE("other failures get their own classes") {
  HttpResponse ok;
  ok.status = 206;
  CHECK(ClassifyResponse(ok) == ErrorClass::kNone);
  HttpResponse cut = ok;
  cut.transport_error = "Connection reset";
  CHECK(ClassifyResponse(cut) == ErrorClass::kTransport);
  HttpResponse timeout;
  timeout.timed_out = true;
  timeout.transport_error = "Operation timed out";
  CHECK(ClassifyResponse(timeout) == ErrorClass::kTimeout);
  HttpResponse forbidden;
  forbidden.status = 403;
  CHECK(ClassifyResponse(forbidden) == ErrorClass::kClient);
  CHECK_FALSE(IsRetryable(ErrorClass::kClient));
  CHECK(IsRetryable(ErrorClass::kThrottledEgress));
  HttpResponse internal;
  internal.status = 500;
  internal.body = "<Error><Code>OperationTimedOut</Code></Error>";
  CHECK(ClassifyResponse(internal) == ErrorClass::kServerBusy);
}

TEST_CASE("the tally counts by class, status and code and becomes facts") {
  ErrorTally a, b;
  a.Add(Busy("Egress is over the account limit."));
  a.Add(Busy("Egress is over the account limit."));
  b.Add(Busy("Operations per second is over the account limit."));
  HttpResponse missing;
  missing.status = 404;
  missing.headers["x-ms-error-code"] = "BlobNotFound";
  b.Add(missing);
  b.retries = 3;
  a.Merge(b);
  CHECK(a.total == 4);
  CHECK(a.Count(ErrorClass::kThrottledEgress) == 2);
  CHECK(a.by_code["ServerBusy"] == 3);
  FactSet f;
  a.AddFacts(&f, {FactOrigin::kMeasured, "test"});
  CHECK(f.Number("probe.errors.throttled_egress") == 2.0);
  CHECK(f.Number("probe.errors.throttled_requests") == 1.0);
  CHECK(f.Number("probe.errors.http.503") == 3.0);
  CHECK(f.Number("probe.errors.code.BlobNotFound") == 1.0);
  CHECK(f.Number("probe.errors.retries") == 3.0);
  CHECK(a.first_message == "HTTP 503 ServerBusy");
}

TEST_CASE("retry delays grow, are capped and jittered") {
  RetryPolicy p;
  CHECK(p.DelaySeconds(1, 0.5) == Approx(0.05));
  CHECK(p.DelaySeconds(2, 0.5) == Approx(0.10));
  CHECK(p.DelaySeconds(20, 0.5) == Approx(1.0));
  CHECK(p.DelaySeconds(1, 0.0) == Approx(0.0375));
  CHECK(p.DelaySeconds(1, 1.0) == Approx(0.0625));
}

TEST_CASE("no HTTP answer (exit 3) vs reached but failed (exit 4)") {
  HttpResponse refused;  // connection refused, DNS: no connect time
  refused.transport_error = "Couldn't connect to server";
  CHECK(NoHttpAnswer(refused));
  HttpResponse tls = refused;  // TCP connected, TLS failed, no status line
  tls.timing.connect_s = 0.001;
  tls.transport_error = "SSL certificate problem";
  CHECK(NoHttpAnswer(tls));
  HttpResponse slow = tls;  // connected, then no first byte before the timeout: reached
  slow.timed_out = true;
  CHECK_FALSE(NoHttpAnswer(slow));
  HttpResponse blackhole = refused;  // the connect itself timed out
  blackhole.timed_out = true;
  CHECK(NoHttpAnswer(blackhole));
  HttpResponse busy;
  busy.status = 503;
  CHECK_FALSE(NoHttpAnswer(busy));
  HttpResponse stopped = refused;  // our own stop is not the target's fault
  stopped.stopped = true;
  CHECK_FALSE(NoHttpAnswer(stopped));
}

TEST_CASE("an error code that is not a plain word is never passed on as sent") {
  HttpResponse r;
  r.status = 403;
  r.headers["x-ms-error-code"] = "AuthorizationPermissionMismatch";
  CHECK(ErrorCodeOf(r) == "AuthorizationPermissionMismatch");
  r.headers["x-ms-error-code"] = "http%3A%2F%2Fh%3Fsig%3Dsecret";
  CHECK(ErrorCodeOf(r) == kUnrecognizedErrorCode);
  r.headers["x-ms-error-code"] = "Denied\x1b]0;x\x07";
  CHECK(ErrorCodeOf(r) == kUnrecognizedErrorCode);
  r.headers.clear();
  r.body = "<Error><Code>A`b```</Code></Error>";
  CHECK(ErrorCodeOf(r) == kUnrecognizedErrorCode);
  ErrorTally tally;
  tally.Add(r);
  CHECK(tally.by_code.count(std::string(kUnrecognizedErrorCode)) == 1);
}
