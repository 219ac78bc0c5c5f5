#include "transport/target.h"

#include <catch2/catch.hpp>

using namespace feedcheck;

namespace {
Target Parse(const std::string& text, const std::string& hint = "") {
  Target t;
  std::string error;
  TargetParseOptions options;
  options.account_hint = hint;
  REQUIRE(ParseTarget(text, options, &t, &error));
  CHECK(error.empty());
  return t;
}
}  // namespace

TEST_CASE("https blob URLs give account, container and prefix") {
  Target t = Parse("https://myacct.blob.core.windows.net/train/shards/part-0001.tar");
  CHECK(t.kind == TargetKind::kBlob);
  CHECK(t.account == "myacct");
  CHECK(t.container == "train");
  CHECK(t.prefix == "shards/part-0001.tar");
  CHECK(t.endpoint == "https://myacct.blob.core.windows.net");
  CHECK(t.Url() == "https://myacct.blob.core.windows.net/train/shards/part-0001.tar");
  CHECK(t.ContainerUrl() == "https://myacct.blob.core.windows.net/train");
}

TEST_CASE("wasbs and abfss targets map onto the blob endpoint") {
  Target w = Parse("wasbs://data@acct2.blob.core.windows.net/imagenet/train/");
  CHECK(w.kind == TargetKind::kBlob);
  CHECK(w.account == "acct2");
  CHECK(w.container == "data");
  CHECK(w.prefix == "imagenet/train/");
  CHECK(w.scheme == "https");

  Target a = Parse("abfss://fs1@acct3.dfs.core.windows.net/dir/sub");
  CHECK(a.kind == TargetKind::kDfs);
  CHECK(a.account == "acct3");
  CHECK(a.container == "fs1");
  CHECK(a.prefix == "dir/sub");
  CHECK(a.endpoint == "https://acct3.blob.core.windows.net");
  CHECK(a.dfs_endpoint == "https://acct3.dfs.core.windows.net");
  CHECK(a.Display() == "https://acct3.dfs.core.windows.net/fs1/dir/sub");
}

TEST_CASE("emulator path-style URLs put the account in the path") {
  Target t = Parse("http://127.0.0.1:10500/devstoreaccount1/cont1/dir/a.bin");
  CHECK(t.kind == TargetKind::kEmulator);
  CHECK(t.account == "devstoreaccount1");
  CHECK(t.container == "cont1");
  CHECK(t.prefix == "dir/a.bin");
  CHECK(t.endpoint == "http://127.0.0.1:10500/devstoreaccount1");
  CHECK(t.ObjectUrl("x y/z") == "http://127.0.0.1:10500/devstoreaccount1/cont1/x%20y/z");
  // Another emulator account only when named.
  CHECK(Parse("http://127.0.0.1:10500/myemu/c1x/p", "myemu").kind == TargetKind::kEmulator);
  CHECK(Parse("http://127.0.0.1:10500/myemu/c1x/p").kind == TargetKind::kHttp);
}

TEST_CASE("plain http URLs and paths stay what they are") {
  Target h = Parse("http://127.0.0.1:18080/files/big.bin?x=1");
  CHECK(h.kind == TargetKind::kHttp);
  CHECK(h.Url() == "http://127.0.0.1:18080/files/big.bin?x=1");
  CHECK(h.Display() == "http://127.0.0.1:18080/files/big.bin");
  Target p = Parse("/mnt/data/train");
  CHECK(p.kind == TargetKind::kLocalPath);
  CHECK(p.path == "/mnt/data/train");
  CHECK(Parse("file:///mnt/x").path == "/mnt/x");
}

TEST_CASE("the host to route to has no port or brackets") {
  CHECK(Parse("http://127.0.0.1:10500/devstoreaccount1/c1x/p").HostName() == "127.0.0.1");
  CHECK(Parse("https://acct.blob.core.windows.net/data/x").HostName() ==
        "acct.blob.core.windows.net");
  CHECK(Parse("http://[::1]:18080/files/big.bin").HostName() == "::1");
  CHECK(Parse("http://localhost/f").HostName() == "localhost");
  CHECK(Parse("abfss://fs@acct.dfs.core.windows.net/p").HostName().rfind("acct.", 0) == 0);
  CHECK(Parse("/mnt/data").HostName().empty());
  Target bare;
  bare.host = "fe80::1";  // an IPv6 literal without brackets carries no port
  CHECK(bare.HostName() == "fe80::1");
}

TEST_CASE("bad targets say what is wrong") {
  Target t;
  std::string error;
  CHECK_FALSE(ParseTarget("ftp://host/x", {}, &t, &error));
  CHECK(error.find("ftp") != std::string::npos);
  CHECK_FALSE(ParseTarget("wasbs://acct.blob.core.windows.net/x", {}, &t, &error));
  CHECK(error.find("CONTAINER@ACCOUNT") != std::string::npos);
  CHECK_FALSE(ParseTarget("abfss://fs@acct.blob.core.windows.net/x", {}, &t, &error));
  CHECK(error.find("dfs") != std::string::npos);
  CHECK_FALSE(ParseTarget("https://acct.blob.core.windows.net/", {}, &t, &error));
  CHECK(error.find("container") != std::string::npos);
  CHECK_FALSE(ParseTarget("https://user:pw@host/x", {}, &t, &error));
  CHECK_FALSE(ParseTarget("", {}, &t, &error));
}

TEST_CASE("Azure ML datastore URIs are refused with the storage URL to give instead") {
  // Only Azure ML maps a datastore to its account and container; the message says how to pass
  // the storage URL, with the datastore's name and path filled in, in both URI forms.
  Target t;
  std::string error;
  CHECK_FALSE(ParseTarget("azureml://datastores/images/paths/train/shards", {}, &t, &error));
  CHECK(error.find("datastore 'images'") != std::string::npos);
  CHECK(error.find("wasbs://CONTAINER@ACCOUNT.blob.core.windows.net/train/shards") !=
        std::string::npos);
  CHECK(error.find("https://ACCOUNT.blob.core.windows.net/CONTAINER/train/shards") !=
        std::string::npos);
  CHECK(error.find("az ml datastore show --name images") != std::string::npos);
  CHECK(error.find("unsupported scheme") == std::string::npos);

  CHECK_FALSE(ParseTarget(
      "azureml://subscriptions/0000/resourcegroups/rg1/workspaces/ws1/datastores/Imgs/paths/a%20b/",
      {}, &t, &error));
  CHECK(error.find("datastore 'Imgs'") != std::string::npos);
  CHECK(error.find("blob.core.windows.net/a b") != std::string::npos);
}

TEST_CASE("percent encoding round-trips") {
  CHECK(EncodePath("a b/c+d") == "a%20b/c%2Bd");
  CHECK(EncodeQueryValue("a/b c") == "a%2Fb%20c");
  CHECK(DecodePercent("a%20b%2Fc%zz") == "a b/c%zz");
  CHECK(DecodePercent("a+b", true) == "a b");
}

TEST_CASE("plain-HTTP Hadoop schemes are refused with the HTTPS form to use") {
  Target t;
  std::string error;
  CHECK_FALSE(ParseTarget("wasb://data@acct.blob.core.windows.net/x/", {}, &t, &error));
  CHECK(error.find("wasbs://data@acct.blob.core.windows.net/x/") != std::string::npos);
  CHECK_FALSE(ParseTarget("abfs://fs@acct.dfs.core.windows.net/x", {}, &t, &error));
  CHECK(error.find("abfss://") != std::string::npos);
  REQUIRE(ParseTarget("wasbs://data@acct.blob.core.windows.net/x/", {}, &t, &error));
  CHECK(t.scheme == "https");
}

TEST_CASE("only real loopback addresses are loopback") {
  for (const char* host : {"127.0.0.1", "127.255.0.9", "::1", "::ffff:127.0.0.2", "localhost"})
    CHECK(IsLoopbackHost(host));
  for (const char* host :
       {"192.0.2.10", "2001:db8::1", "127.evil.blob.core.windows.net", "127.0.0.1.evil",
        "128.0.0.1", "::ffff:10.0.0.1", "localhost.evil", "0.0.0.0", "::", "127.1", ""})
    CHECK_FALSE(IsLoopbackHost(host));
  Target t;
  std::string error;
  for (const char* url :
       {"http://192.0.2.10/devstoreaccount1/c/b", "http://[2001:db8::1]:10000/devstoreaccount1/c/b",
        "http://127.evil.blob.core.windows.net/c/b"}) {
    INFO(url);
    REQUIRE(ParseTarget(url, {}, &t, &error));
    CHECK_FALSE(t.IsLoopback());
    CHECK_FALSE(t.CleartextCredentialsAllowed());
  }
  REQUIRE(ParseTarget("http://[::1]:10000/devstoreaccount1/c/b", {}, &t, &error));
  CHECK(t.CleartextCredentialsAllowed());
}

TEST_CASE("a password before '@' in wasbs:// or abfss:// is refused, never echoed") {
  Target t;
  std::string error;
  CHECK_FALSE(ParseTarget("wasbs://c:S3cretPw@acct.blob.core.windows.net/x", {}, &t, &error));
  CHECK(error.find("S3cretPw") == std::string::npos);
  CHECK(error.find("password") != std::string::npos);
  CHECK_FALSE(ParseTarget("abfss://fs:S3cretPw@acct.dfs.core.windows.net/x", {}, &t, &error));
  CHECK(error.find("S3cretPw") == std::string::npos);
}

TEST_CASE("credentials may cross plain http only to loopback") {
  Target t;
  std::string error;
  REQUIRE(ParseTarget("http://acct.blob.core.windows.net/c/b", {}, &t, &error));
  CHECK_FALSE(t.CleartextCredentialsAllowed());
  REQUIRE(ParseTarget("https://acct.blob.core.windows.net/c/b", {}, &t, &error));
  CHECK(t.CleartextCredentialsAllowed());
  REQUIRE(ParseTarget("http://127.0.0.1:10000/devstoreaccount1/c/b", {}, &t, &error));
  CHECK(t.CleartextCredentialsAllowed());
  REQUIRE(ParseTarget("http://localhost:8080/devstoreaccount1/c/b", {}, &t, &error));
  CHECK(t.IsLoopback());
}

TEST_CASE("dot segments of blob names are encoded, so a name cannot leave its container") {
  CHECK(EncodePath("../../x/./y.bin") == "%2E%2E/%2E%2E/x/%2E/y.bin");
  CHECK(EncodePath("a..b/.hidden/..c") == "a..b/.hidden/..c");  // not whole dot segments
  CHECK(EncodePath("d/..") == "d/%2E%2E");
}
