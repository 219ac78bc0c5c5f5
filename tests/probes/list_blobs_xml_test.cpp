#include "transport/list_blobs_xml.h"

#include <catch2/catch.hpp>

#include "tests/fakes/list_blobs_page.h"

using namespace feedcheck;

TEST_CASE("a real-shaped page yields names, sizes and the next marker", "[probes][list]") {
  ListPage page;
  std::string error;
  REQUIRE(ParseListBlobsXml(feedcheck::testing::ListBlobsPageXml(3), &page, &error));
  REQUIRE(page.entries.size() == 3);
  CHECK(page.entries[0].name == "train/img_000000.jpg");
  CHECK(page.entries[2].size_bytes == 1074);
  CHECK_FALSE(page.entries[1].is_dir);
  CHECK(page.next_marker == "2!96!MDAwMDQ2IXRyYWlu");
  CHECK(page.prefixes.empty());
}

TEST_CASE("the documented example with prefixes and an empty NextMarker", "[probes][list]") {
  const char* xml =
      R"(<?xml version="1.0" encoding="utf-8"?><EnumerationResults ServiceEndpoint="https://acct.blob.core.windows.net/" ContainerName="c">
 <Prefix>p/</Prefix><MaxResults>5000</MaxResults><Delimiter>/</Delimiter>
 <Blobs><Blob><Name>p/a.bin</Name><Properties><Creation-Time>Thu, 15 Aug 2019 08:33:20 GMT</Creation-Time>
   <Etag>0x8D7215B3B006953</Etag><Content-Length>1024</Content-Length>
   <Content-Type>application/octet-stream</Content-Type><Content-MD5 /><BlobType>BlockBlob</BlobType>
   </Properties><Metadata><Name>not a blob name</Name></Metadata></Blob>
  <BlobPrefix><Name>p/sub/</Name></BlobPrefix></Blobs><NextMarker /></EnumerationResults>
)";
  ListPage page;
  std::string error;
  REQUIRE(ParseListBlobsXml(xml, &page, &error));
  REQUIRE(page.entries.size() == 1);
  CHECK(page.entries[0].name == "p/a.bin");  // Metadata/Name did not overwrite it
  CHECK(page.entries[0].size_bytes == 1024);
  CHECK(page.prefixes == std::vector<std::string>{"p/sub/"});
  CHECK(page.next_marker.empty());
}

TEST_CASE("entities, numeric references and Encoded names are decoded", "[probes][list]") {
  std::string xml =
      "<EnumerationResults><Blobs>" +
      feedcheck::testing::ListBlobsBlobXml("a&amp;b&lt;c&#x263A;&#65;", 1) +
      "<Blob><Name Encoded=\"true\">bad%EF%BF%BEname%25</Name><Properties><Content-Length>2"
      "</Content-Length><ResourceType>directory</ResourceType></Properties></Blob>"
      "</Blobs><NextMarker>m&amp;1</NextMarker></EnumerationResults>";
  ListPage page;
  std::string error;
  REQUIRE(ParseListBlobsXml(xml, &page, &error));
  REQUIRE(page.entries.size() == 2);
  CHECK(page.entries[0].name ==
        "a&b<c\xE2\x98\xBA"
        "A");
  CHECK(page.entries[1].name == "bad\xEF\xBF\xBEname%");
  CHECK(page.entries[1].is_dir);
  CHECK(page.next_marker == "m&1");
}

TEST_CASE("an empty listing", "[probes][list]") {
  ListPage page;
  std::string error;
  REQUIRE(ParseListBlobsXml("<EnumerationResults><Blobs /><NextMarker /></EnumerationResults>",
                            &page, &error));
  CHECK(page.entries.empty());
  CHECK(page.next_marker.empty());
}

TEST_CASE("malformed listings give errors with a byte offset", "[probes][list]") {
  ListPage page;
  std::string error;
  auto fails = [&](const std::string& xml, const std::string& expect) {
    error.clear();
    bool ok = ParseListBlobsXml(xml, &page, &error);
    INFO(xml << " -> " << error);
    CHECK_FALSE(ok);
    CHECK(error.find(expect) != std::string::npos);
    CHECK(error.find("byte ") != std::string::npos);
  };
  std::string full = feedcheck::testing::ListBlobsPageXml(2);
  fails(full.substr(0, full.size() / 2), "truncated");
  fails(full.substr(0, full.size() - 1), "truncated");
  fails("", "no <EnumerationResults>");
  fails("<Error><Code>AuthenticationFailed</Code></Error>", "expected <EnumerationResults>");
  fails("<EnumerationResults><Blobs></Blob></EnumerationResults>", "expected </Blobs>");
  fails(
      "<EnumerationResults><Blobs><Blob><Name>a&bogus;</Name></Blob></Blobs>"
      "</EnumerationResults>",
      "bad entity");
  fails(
      "<EnumerationResults><Blobs><Blob><Properties><Content-Length>12x</Content-Length>"
      "</Properties></Blob></Blobs></EnumerationResults>",
      "Content-Length is not a number");
  fails("<EnumerationResults></EnumerationResults><EnumerationResults>", "second root");
  fails("<EnumerationResults><", "truncated tag");
  fails("<EnumerationResults>< Blobs>", "element name");
  std::string deep = "<EnumerationResults>";
  for (int i = 0; i < 100; ++i) deep += "<a>";
  fails(deep, "deeper than 64");
}

TEST_CASE("every prefix of a page is rejected or parsed, never crashes", "[probes][list]") {
  std::string full = feedcheck::testing::ListBlobsPageXml(3);
  ListPage page;
  std::string error;
  size_t accepted = 0;
  for (size_t len = 0; len < full.size(); ++len)
    accepted += ParseListBlobsXml(std::string_view(full).substr(0, len), &page, &error) ? 1 : 0;
  CHECK(accepted == 0);  // no proper prefix of a page is a complete page
  CHECK(ParseListBlobsXml(full, &page, &error));
}

TEST_CASE("List Paths JSON with string-typed numbers", "[probes][list]") {
  const char* json = R"({"paths":[
    {"name":"dir","isDirectory":"true","contentLength":"0","etag":"0x1"},
    {"name":"dir/x.bin","contentLength":"4096","lastModified":"Wed, 22 Feb 2023 02:41:28 GMT"},
    {"name":"dir/y.bin","contentLength":12}]})";
  ListPage page;
  std::string error;
  REQUIRE(ParseListPathsJson(json, &page, &error));
  REQUIRE(page.entries.size() == 3);
  CHECK(page.entries[0].is_dir);
  CHECK(page.entries[1].size_bytes == 4096);
  CHECK_FALSE(page.entries[1].is_dir);
  CHECK(page.entries[2].size_bytes == 12);
  CHECK_FALSE(
      ParseListPathsJson("{\"paths\":[{\"name\":\"a\",\"contentLength\":\"x\"}]}", &page, &error));
  CHECK(error.find("paths[0]") != std::string::npos);
  CHECK_FALSE(ParseListPathsJson("{\"paths\":[", &page, &error));
  CHECK_FALSE(ParseListPathsJson("{\"error\":{}}", &page, &error));
  CHECK(error.find("\"paths\"") != std::string::npos);
}
