#include "app/probe_session.h"

#include <catch2/catch.hpp>

#include "core/diagnostic_codes.h"
#include "scripted_session.h"

using namespace feedcheck;
using feedcheck::testing::ScriptedHttpClient;

namespace {

std::shared_ptr<ScriptedHttpClient> NoServer() {
  return std::make_shared<ScriptedHttpClient>([](const HttpRequest&) { return HttpResponse{}; });
}

std::string FirstMessage(const DiagnosticList& d) {
  return d.kept().empty() ? "" : d.kept().front().message;
}

}  // namespace

TEST_CASE("probe session: budget errors name the flag", "[app][probe_session]") {
  app::ProbeSessionRequest r;
  ProbeBudget budget;
  r.duration = "0s";
  DiagnosticList d1;
  CHECK_FALSE(app::ParseProbeBudget(r, &budget, &d1));
  CHECK(FirstMessage(d1).find("--duration '0s'") != std::string::npos);
  CHECK(d1.kept().front().code == codes::kProbeBadFlag);
  r.duration = "90s";
  r.max_bytes = "lots";
  DiagnosticList d2;
  CHECK_FALSE(app::ParseProbeBudget(r, &budget, &d2));
  CHECK(FirstMessage(d2).find("--max-bytes 'lots'") != std::string::npos);
  r.max_bytes = "1GiB";
  r.max_requests = 0;
  DiagnosticList d3;
  CHECK_FALSE(app::ParseProbeBudget(r, &budget, &d3));
  CHECK(FirstMessage(d3).find("--max-requests") != std::string::npos);
  r.max_requests = 7;
  DiagnosticList d4;
  REQUIRE(app::ParseProbeBudget(r, &budget, &d4));
  CHECK(budget.duration_s == 90);
  CHECK(budget.max_bytes == (1ull << 30));
  CHECK(budget.max_requests == 7);
}

TEST_CASE("probe session: a SAS signature in argv is refused without echoing it",
          "[app][probe_session][safety]") {
  auto r = feedcheck::testing::ScriptedSession(
      "https://acct.blob.core.windows.net/data/x?sv=2022&sig=SECRETSIGNATURE", NoServer());
  HttpProbeEnv env;
  DiagnosticList d;
  CHECK(app::OpenHttpSession(r, &env, &d) == ExitStatus::kUsage);
  CHECK(FirstMessage(d).find("AZURE_STORAGE_SAS_TOKEN") != std::string::npos);
  CHECK(FirstMessage(d).find("SECRETSIGNATURE") == std::string::npos);
}

TEST_CASE("probe session: credentials come from the environment given, never over plain http",
          "[app][probe_session][safety]") {
  SECTION("a SAS token in the environment signs requests") {
    auto r =
        feedcheck::testing::ScriptedSession("https://acct.blob.core.windows.net/data/", NoServer(),
                                            {{"AZURE_STORAGE_SAS_TOKEN", "sv=2022&sig=abc"}});
    HttpProbeEnv env;
    DiagnosticList d;
    REQUIRE(app::OpenHttpSession(r, &env, &d) == ExitStatus::kOk);
    CHECK(env.signer.auth().kind == AuthKind::kSas);
    CHECK(app::DescribeSession("list", env, "").find("auth sas") != std::string::npos);
  }
  SECTION("nothing in the environment: anonymous") {
    auto r =
        feedcheck::testing::ScriptedSession("https://acct.blob.core.windows.net/data/", NoServer());
    HttpProbeEnv env;
    DiagnosticList d;
    REQUIRE(app::OpenHttpSession(r, &env, &d) == ExitStatus::kOk);
    CHECK(env.signer.auth().kind == AuthKind::kAnonymous);
  }
  SECTION("a key over http:// to a remote host is refused") {
    auto r = feedcheck::testing::ScriptedSession("http://acct.blob.core.windows.net/data/",
                                                 NoServer(), {{"AZURE_STORAGE_KEY", "a2V5"}});
    HttpProbeEnv env;
    DiagnosticList d;
    CHECK(app::OpenHttpSession(r, &env, &d) == ExitStatus::kUsage);
    CHECK(FirstMessage(d).find("plain http://") != std::string::npos);
  }
  SECTION("--auth on a plain URL names the flag") {
    auto r = feedcheck::testing::ScriptedSession("https://example.com/file", NoServer());
    r.auth.mode = "sas";
    HttpProbeEnv env;
    DiagnosticList d;
    CHECK(app::OpenHttpSession(r, &env, &d) == ExitStatus::kUsage);
    CHECK(FirstMessage(d).find("--auth sas") != std::string::npos);
  }
  SECTION("a missing key file is an input error, exit 3") {
    auto r =
        feedcheck::testing::ScriptedSession("https://acct.blob.core.windows.net/data/", NoServer());
    r.auth.key_file = "/nonexistent/key";
    HttpProbeEnv env;
    DiagnosticList d;
    CHECK(app::OpenHttpSession(r, &env, &d) == ExitStatus::kInputError);
    CHECK(d.kept().front().code == codes::kCredential);
  }
}

TEST_CASE("probe session: --insecure is a warning, a path is not a URL", "[app][probe_session]") {
  auto r = feedcheck::testing::ScriptedSession("https://127.0.0.1:1/acct/data/", NoServer());
  r.insecure = true;
  HttpProbeEnv env;
  DiagnosticList d;
  REQUIRE(app::OpenHttpSession(r, &env, &d) == ExitStatus::kOk);
  REQUIRE(d.total() == 1);
  CHECK(d.kept().front().severity == DiagnosticSeverity::kWarning);
  CHECK(d.kept().front().code == codes::kWeakened);

  std::string path;
  CHECK(app::IsLocalPathTarget("/tmp", &path));
  CHECK(path == "/tmp");
  auto local = feedcheck::testing::ScriptedSession("/tmp", NoServer());
  DiagnosticList d2;
  CHECK(app::OpenHttpSession(local, &env, &d2) == ExitStatus::kUsage);
  CHECK(FirstMessage(d2).find("is a path") != std::string::npos);
}

TEST_CASE("probe session: exit status of each probe outcome", "[app][probe_session]") {
  CHECK(app::ProbeExitStatus(ProbeStatus::kOk) == ExitStatus::kOk);
  CHECK(app::ProbeExitStatus(ProbeStatus::kPartial) == ExitStatus::kOk);
  CHECK(app::ProbeExitStatus(ProbeStatus::kFailed) == ExitStatus::kProbeFailed);
  CHECK(app::ProbeExitStatus(ProbeStatus::kUnreachable) == ExitStatus::kInputError);
}

TEST_CASE("probe session: every secret-looking flag says where the secret goes",
          "[app][probe_session][safety]") {
  REQUIRE(app::RefusedSecretFlags().size() >= 9);
  for (const auto& f : app::RefusedSecretFlags()) {
    std::string m = app::RefusedSecretMessage(f);
    CHECK(m.find("not accepted on the command line") != std::string::npos);
    CHECK(m.find(f.instead) != std::string::npos);
  }
}
