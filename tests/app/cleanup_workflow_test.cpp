// app::RunCleanup against a scripted container: only this tool's own feedcheck-test-* prefixes
// are deleted, after the whole listing; a dry run deletes nothing; the counts are in `result`.
#include "app/cleanup_workflow.h"

#include <catch2/catch.hpp>

#include "app_test_support.h"
#include "core/diagnostic_codes.h"
#include "scripted_session.h"
#include "tests/fakes/list_blobs_page.h"

using namespace feedcheck;
using namespace feedcheck::app::testing;
using feedcheck::testing::ScriptedHttpClient;

namespace {

constexpr const char* kPrefixA = "runs/feedcheck-test-20261122T035500Z-4242-1a2b3c4d/";
constexpr const char* kPrefixB = "feedcheck-test-20261123T101010Z-77-deadbeef/";

// One listing page: two blobs under prefix A, one under B, and the user's own data, which a
// name like "feedcheck-test-notes.txt" must not put under a test prefix.
std::string Listing() {
  std::string xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?><EnumerationResults><Blobs>" +
                    feedcheck::testing::ListBlobsBlobXml(std::string(kPrefixA) + "f0", 4096) +
                    feedcheck::testing::ListBlobsBlobXml(std::string(kPrefixA) + "f1", 65536) +
                    feedcheck::testing::ListBlobsBlobXml(std::string(kPrefixB) + "x", 10) +
                    feedcheck::testing::ListBlobsBlobXml("train/img_000001.jpg", 1000) +
                    feedcheck::testing::ListBlobsBlobXml("feedcheck-test-notes.txt", 5) +
                    "</Blobs><NextMarker /></EnumerationResults>";
  return xml;
}

std::shared_ptr<ScriptedHttpClient> Container(int delete_status = 202) {
  return std::make_shared<ScriptedHttpClient>([delete_status](const HttpRequest& r) {
    if (r.method == "GET") return feedcheck::testing::Ok(Listing());
    HttpResponse del;
    del.status = delete_status;
    return del;
  });
}

std::vector<std::string> Deleted(const ScriptedHttpClient& client) {
  std::vector<std::string> urls;
  for (const auto& r : client.requests())
    if (r.method == "DELETE") urls.push_back(r.url);
  return urls;
}

app::CleanupRequest CleanupWith(std::shared_ptr<ScriptedHttpClient> client) {
  app::CleanupRequest request;
  request.session =
      feedcheck::testing::ScriptedSession("https://acct.blob.core.windows.net/data/", client,
                                          {{"AZURE_STORAGE_SAS_TOKEN", "sv=1&sp=rld&sig=x"}});
  return request;
}

}  // namespace

TEST_CASE("cleanup removes the test prefixes' blobs and nothing else", "[app][cleanup]") {
  auto client = Container();
  std::vector<std::string> notices;
  app::ProbeCallbacks callbacks;
  callbacks.notice = [&](const std::string& text) { notices.push_back(text); };
  app::Outcome out = app::RunCleanup(CleanupWith(client), callbacks);
  REQUIRE(out.has_report);
  CHECK(out.status == ExitStatus::kOk);
  std::vector<std::string> deleted = Deleted(*client);
  REQUIRE(deleted.size() == 3);
  for (const auto& url : deleted) {
    INFO(url);
    CHECK(url.find("feedcheck-test-2026") != std::string::npos);
    CHECK(url.find("sig=x") != std::string::npos);  // signed with the SAS
  }
  CHECK(ResultNumber(out.report, "prefixes") == 2);
  CHECK(ResultNumber(out.report, "blobs_found") == 3);
  CHECK(ResultNumber(out.report, "blobs_deleted") == 3);
  CHECK(ResultNumber(out.report, "delete_failures") == 0);
  CHECK(ResultBool(out.report, "listing_complete") == true);
  CHECK(ResultBool(out.report, "dry_run") == false);
  CHECK(ResultText(out.report, "status") == "ok");
  const ReportTable* table = FindTable(out.report, "Test-data prefixes");
  REQUIRE(table);
  REQUIRE(table->rows.size() == 2);
  CHECK(Cell(*table, 0, "prefix")->text == kPrefixB);  // sorted by name
  CHECK(Cell(*table, 1, "blobs")->value == 2);
  CHECK(Cell(*table, 1, "bytes")->value == 4096 + 65536);
  // The budget was stated before the first request, and no secret is in the report.
  REQUIRE(notices.size() == 1);
  INFO(notices[0]);
  CHECK(notices[0].find("probe cleanup: https://acct.blob.core.windows.net/data (") == 0);
  CHECK(notices[0].find("deletes blobs under feedcheck-test-* prefixes only") != std::string::npos);
  CHECK(out.report.context.target.find("sig=") == std::string::npos);
}

TEST_CASE("cleanup --dry-run lists what it would remove and deletes nothing", "[app][cleanup]") {
  auto client = Container();
  app::CleanupRequest request = CleanupWith(client);
  request.dry_run = true;
  app::Outcome out = app::RunCleanup(request);
  CHECK(out.status == ExitStatus::kOk);
  CHECK(Deleted(*client).empty());
  CHECK(ResultNumber(out.report, "blobs_found") == 3);
  CHECK(ResultNumber(out.report, "blobs_deleted") == 0);
  CHECK(out.report.verdict_detail == "2 test prefixes, 3 blobs found, 0 deleted (dry run)");
  const ReportTable* table = FindTable(out.report, "Test-data prefixes");
  REQUIRE(table);
  CHECK(Cell(*table, 0, "action")->text == "would remove");
}

TEST_CASE("cleanup: blobs it could not delete are a failed run that says so", "[app][cleanup]") {
  auto client = Container(403);
  app::Outcome out = app::RunCleanup(CleanupWith(client));
  CHECK(out.status == ExitStatus::kProbeFailed);
  CHECK(ResultNumber(out.report, "delete_failures") == 3);
  CHECK(Cell(*FindTable(out.report, "Test-data prefixes"), 0, "action")->text == "attempted");
  CHECK(HasDiagnostic(out.diagnostics, codes::kTestDataLeft, "3 of 3 test blobs"));
  CHECK(HasDiagnostic(out.diagnostics, codes::kProbeStatus, "Delete Blob: HTTP 403"));
}

TEST_CASE("cleanup: a missing container is an input error, a bad flag a usage error",
          "[app][cleanup]") {
  auto missing = std::make_shared<ScriptedHttpClient>(
      [](const HttpRequest&) { return feedcheck::testing::AzureError(404, "ContainerNotFound"); });
  app::Outcome out = app::RunCleanup(CleanupWith(missing));
  CHECK(out.status == ExitStatus::kInputError);
  CHECK(Deleted(*missing).empty());

  // Refused without a credential: the next step names the variable to set.
  auto refused = std::make_shared<ScriptedHttpClient>([](const HttpRequest&) {
    return feedcheck::testing::AzureError(403, "NoAuthenticationInformation");
  });
  app::CleanupRequest anonymous;
  anonymous.session =
      feedcheck::testing::ScriptedSession("https://acct.blob.core.windows.net/data/", refused);
  out = app::RunCleanup(anonymous);
  CHECK(out.status == ExitStatus::kProbeFailed);
  CHECK(HasDiagnostic(out.diagnostics, codes::kAccessDenied, "AZURE_STORAGE_SAS_TOKEN"));
  CHECK(FindTable(out.report, "Test-data prefixes") == nullptr);

  auto client = Container();
  app::CleanupRequest request = CleanupWith(client);
  request.max_pages = 0;
  out = app::RunCleanup(request);
  CHECK(out.status == ExitStatus::kUsage);
  CHECK_FALSE(out.has_report);
  CHECK(HasDiagnostic(out.diagnostics, codes::kProbeBadFlag, "--max-pages"));
  CHECK(client->requests().empty());
}
