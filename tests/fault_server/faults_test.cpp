// The fault server's choices, without sockets: each path gets the Azure-shaped answer the probe
// tests rely on.
#include "tests/fault_server/faults.h"

#include <catch2/catch.hpp>

using namespace feedcheck::fault_server;

namespace {
Request Get(std::string path, std::string query = "", std::string range = "") {
  return Request{"GET", std::move(path), std::move(query), std::move(range), false};
}
std::string HeaderOf(const Plan& p, const std::string& name) {
  for (const auto& [n, v] : p.headers) {
    if (n == name) return v;
  }
  return "";
}
}  // namespace

TEST_CASE("each throttling fault is a 503 ServerBusy with Azure's message", "[faults]") {
  Settings s;
  struct Case {
    const char* path;
    const char* message;
  } cases[] = {{"/acct/fault-busy-egress/b", "Egress is over the account limit."},
               {"/acct/fault-busy-ops/b", "Operations per second is over the account limit."},
               {"/acct/fault-busy-server/b", "The server is busy."}};
  for (const auto& c : cases) {
    Plan p = PlanFor(Get(c.path), s);
    INFO(c.path);
    CHECK(p.status == 503);
    CHECK(HeaderOf(p, "x-ms-error-code") == "ServerBusy");
    CHECK(p.body.find(std::string("<Message>") + c.message) != std::string::npos);
    CHECK(p.content_length == p.body.size());
  }
  Plan t = PlanFor(Get("/acct/fault-timeout500/b"), s);
  CHECK(t.status == 500);
  CHECK(HeaderOf(t, "x-ms-error-code") == "OperationTimedOut");
}

TEST_CASE("healthy objects honour ranges and refuse unsatisfiable ones", "[faults]") {
  Settings s;
  s.object_bytes = 1000;
  Plan whole = PlanFor(Get("/acct/c/obj"), s);
  CHECK(whole.status == 200);
  CHECK(whole.synthetic_bytes == 1000);
  Plan part = PlanFor(Get("/acct/c/obj", "", "bytes=100-199"), s);
  CHECK(part.status == 206);
  CHECK(part.synthetic_offset == 100);
  CHECK(part.synthetic_bytes == 100);
  CHECK(HeaderOf(part, "Content-Range") == "bytes 100-199/1000");
  Plan open_end = PlanFor(Get("/acct/c/obj", "", "bytes=900-"), s);
  CHECK(open_end.synthetic_bytes == 100);
  Plan past_end = PlanFor(Get("/acct/c/obj", "", "bytes=900-5000"), s);
  CHECK(past_end.synthetic_bytes == 100);
  CHECK(PlanFor(Get("/acct/c/obj", "", "bytes=1000-1001"), s).status == 416);
  CHECK(PlanFor(Get("/acct/c/obj", "", "bytes=x"), s).status == 416);
}

TEST_CASE("body faults keep their headers honest or dishonest as named", "[faults]") {
  Settings s;
  s.object_bytes = 4096;
  CHECK(PlanFor(Get("/a/fault-reset/o"), s).body_fault == BodyFault::kResetMidBody);
  CHECK(PlanFor(Get("/a/fault-stall/o"), s).body_fault == BodyFault::kStallMidBody);
  Plan wrong = PlanFor(Get("/a/fault-wrong-length/o"), s);
  CHECK(wrong.body_fault == BodyFault::kShortBody);
  CHECK(wrong.content_length > wrong.synthetic_bytes);
  CHECK(PlanFor(Get("/a/fault-slow-first-byte/o"), s).first_byte_delay_ms == s.slow_first_byte_ms);
  Plan loop = PlanFor(Get("/a/fault-redirect-loop/o", "sv=1"), s);
  CHECK(loop.status == 302);
  CHECK(HeaderOf(loop, "Location") == "/a/fault-redirect-loop/o?sv=1");
}

TEST_CASE("listings: healthy pages parse, truncated ones stop mid-element", "[faults]") {
  Settings s;
  s.list_entries = 3;
  Plan ok = PlanFor(Get("/a/c", "restype=container&comp=list"), s);
  CHECK(ok.status == 200);
  CHECK(ok.body.find("<Name>blob-2.bin</Name>") != std::string::npos);
  CHECK(ok.body.find("</EnumerationResults>") != std::string::npos);
  Plan cut = PlanFor(Get("/a/fault-truncated-list", "restype=container&comp=list"), s);
  CHECK(cut.status == 200);
  CHECK(cut.body.find("</EnumerationResults>") == std::string::npos);
  CHECK(cut.content_length == cut.body.size());
}

TEST_CASE("forbidden-some forbids objects with an odd digit, never the listing", "[faults]") {
  Settings s;
  CHECK(PlanFor(Get("/a/fault-forbidden-some/blob-1.bin"), s).status == 403);
  CHECK(PlanFor(Get("/a/fault-forbidden-some/blob-2.bin"), s).status == 200);
  CHECK(PlanFor(Get("/a/fault-forbidden-some", "restype=container&comp=list"), s).status == 200);
}

TEST_CASE("flaky faults throttle every second request; HEAD carries no body", "[faults]") {
  Settings s;
  Request r = Get("/a/fault-flaky-egress/o");
  r.sequence = 1;
  CHECK(PlanFor(r, s).status == 200);
  r.sequence = 2;
  Plan busy = PlanFor(r, s);
  CHECK(busy.status == 503);
  CHECK(busy.body.find("Egress is over the account limit.") != std::string::npos);
  r.path = "/a/fault-flaky-ops/o";
  CHECK(PlanFor(r, s).body.find("Operations per second") != std::string::npos);
  Request head = Get("/a/fault-busy-ops/o");
  head.method = "HEAD";
  CHECK(PlanFor(head, s).head);
}

TEST_CASE("a paged listing hands out markers until its last page", "[faults]") {
  Settings s;
  s.list_entries = 3;
  s.list_pages = 3;
  Plan first = PlanFor(Get("/acct/c", "restype=container&comp=list"), s);
  CHECK(first.body.find("<Name>blob-0.bin</Name>") != std::string::npos);
  CHECK(first.body.find("<NextMarker>page-1</NextMarker>") != std::string::npos);
  Plan second = PlanFor(Get("/acct/c", "restype=container&comp=list&marker=page-1"), s);
  CHECK(second.body.find("<Name>blob-3.bin</Name>") != std::string::npos);
  CHECK(second.body.find("<NextMarker>page-2</NextMarker>") != std::string::npos);
  Plan last = PlanFor(Get("/acct/c", "restype=container&comp=list&marker=page-2"), s);
  CHECK(last.body.find("<Name>blob-8.bin</Name>") != std::string::npos);
  CHECK(last.body.find("<NextMarker />") != std::string::npos);
}

TEST_CASE("body faults reach listings only when asked", "[faults]") {
  Settings s;
  Plan healthy = PlanFor(Get("/acct/fault-stall", "restype=container&comp=list"), s);
  CHECK(healthy.body_fault == BodyFault::kNone);
  s.list_body_faults = true;
  CHECK(PlanFor(Get("/acct/fault-stall", "restype=container&comp=list"), s).body_fault ==
        BodyFault::kStallMidBody);
  CHECK(PlanFor(Get("/acct/fault-reset", "restype=container&comp=list"), s).body_fault ==
        BodyFault::kResetMidBody);
  Plan short_body = PlanFor(Get("/acct/fault-wrong-length", "restype=container&comp=list"), s);
  CHECK(short_body.body_fault == BodyFault::kShortBody);
  CHECK(short_body.content_length > short_body.body.size());
}

TEST_CASE("broken heads apply to reads, HEADs and listings alike", "[faults]") {
  Settings s;
  struct Case {
    const char* fault;
    HeadFault head;
  } cases[] = {{"huge-header", HeadFault::kHugeHeader},
               {"endless-headers", HeadFault::kEndlessHeaders},
               {"not-http", HeadFault::kNotHttp},
               {"bad-chunked", HeadFault::kBadChunked}};
  for (const auto& c : cases) {
    INFO(c.fault);
    std::string path = std::string("/acct/fault-") + c.fault + "/b";
    CHECK(PlanFor(Get(path), s).head_fault == c.head);
    CHECK(PlanFor(Get(std::string("/acct/fault-") + c.fault, "restype=container&comp=list"), s)
              .head_fault == c.head);
    Request head = Get(path);
    head.method = "HEAD";
    CHECK(PlanFor(head, s).head_fault == c.head);
    CHECK(PlanFor(Get(path), s).trickle_ms == 0);
  }
  Plan trickle = PlanFor(Get("/acct/fault-trickle/b", "", "bytes=0-99"), s);
  CHECK(trickle.trickle_ms > 0);
  CHECK(trickle.head_fault == HeadFault::kNone);
  CHECK(trickle.status == 206);  // the bytes are right, only slow
  CHECK(PlanFor(Get("/acct/c/b"), s).head_fault == HeadFault::kNone);
}

TEST_CASE("answers that contradict the request, and listings that never end", "[faults]") {
  Settings s;
  s.object_bytes = 1 << 20;
  Plan ignored = PlanFor(Get("/a/fault-ignore-range/b", "", "bytes=0-1023"), s);
  CHECK(ignored.status == 200);
  CHECK(ignored.content_length == kIgnoredRangeObjectBytes);
  CHECK(HeaderOf(ignored, "Content-Range").empty());
  Plan shifted = PlanFor(Get("/a/fault-range-mismatch/b", "", "bytes=0-1023"), s);
  CHECK(shifted.status == 206);
  CHECK(HeaderOf(shifted, "Content-Range") == "bytes 1-1024/1048576");
  CHECK(shifted.content_length == 1024);
  Plan gzip = PlanFor(Get("/a/fault-gzip/b", "", "bytes=0-1023"), s);
  CHECK(HeaderOf(gzip, "Content-Encoding") == "gzip");
  CHECK(gzip.content_length == 256);
  s.redirect_to = "http://127.0.0.1:9";
  Plan away = PlanFor(Get("/a/fault-redirect-away/b", "sig=x"), s);
  CHECK(away.status == 307);
  CHECK(HeaderOf(away, "Location") == "http://127.0.0.1:9/a/fault-redirect-away/b?sig=x");
  Plan later = PlanFor(Get("/a/fault-retry-after/b"), s);
  CHECK(later.status == 429);
  CHECK(HeaderOf(later, "Retry-After") == "86400");
  // The marker loop: pages 0 -> 1 -> 2 -> 1.
  const std::string list = "restype=container&comp=list";
  CHECK(PlanFor(Get("/a/fault-marker-loop", list), s).body.find("<NextMarker>page-1<") !=
        std::string::npos);
  CHECK(PlanFor(Get("/a/fault-marker-loop", list + "&marker=page-1"), s)
            .body.find("<NextMarker>page-2<") != std::string::npos);
  CHECK(PlanFor(Get("/a/fault-marker-loop", list + "&marker=page-2"), s)
            .body.find("<NextMarker>page-1<") != std::string::npos);
  Plan bomb = PlanFor(Get("/a/fault-entity-bomb", list), s);
  CHECK(bomb.body.find("<!ENTITY lol9") != std::string::npos);
  CHECK(bomb.body.find("<Name>&lol9;") != std::string::npos);
  Plan spaces = PlanFor(Get("/a/fault-whitespace-list", list), s);
  CHECK(spaces.pad_bytes == kListWhitespaceBytes);
  CHECK(spaces.content_length == spaces.body.size() + kListWhitespaceBytes);
  CHECK(spaces.body.substr(spaces.pad_at - 7, 7) == "<Blobs>");
}
