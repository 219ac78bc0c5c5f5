#include "core/redact.h"

#include <catch2/catch.hpp>

#include "core/known_secrets.h"

using namespace feedcheck;

TEST_CASE("SAS signatures are redacted in URLs") {
  std::string url =
      "https://a.blob.core.windows.net/c/b?sv=2021-08-06&sr=b&sig=abc%2Bdef%3D&se=2026-01-01&sp=r";
  std::string r = RedactUrl(url);
  CHECK(r.find("abc") == std::string::npos);
  CHECK(r.find("sig=REDACTED&se=2026-01-01") != std::string::npos);
  CHECK(r.find("sv=2021-08-06") != std::string::npos);
  CHECK(RedactUrl("http://x/y?SIG=zzz").find("zzz") == std::string::npos);
  CHECK(RedactUrl("http://x/y?token=t0k&a=1") == "http://x/y?token=REDACTED&a=1");
  CHECK(RedactUrl("https://b.s3.amazonaws.com/k?X-Amz-Signature=abc123&X-Amz-Expires=60")
            .find("abc123") == std::string::npos);
}

TEST_CASE("headers and free text lose their credentials") {
  CHECK(RedactHeaderValue("Authorization", "Bearer eyJ0eXAi") == "REDACTED");
  CHECK(RedactHeaderValue("x-ms-version", "2021-08-06") == "2021-08-06");
  std::string text =
      "request failed: Authorization: SharedKey devstoreaccount1:c2lnbmF0dXJl\nnext line";
  std::string r = RedactText(text);
  CHECK(r.find("c2lnbmF0dXJl") == std::string::npos);
  CHECK(r.find("next line") != std::string::npos);
  CHECK(RedactText("token is Bearer abc.def.ghi ok").find("abc.def") == std::string::npos);
  CHECK(RedactText("sig=secret&sv=1").find("secret") == std::string::npos);
  CHECK(
      RedactText("DefaultEndpointsProtocol=https;AccountName=a;AccountKey=k3y==;x=1").find("k3y") ==
      std::string::npos);
  CHECK(RedactText("nothing secret here") == "nothing secret here");
}

TEST_CASE("a percent-encoded URL echoed by a server loses its credentials too") {
  std::string echoed =
      "http%3A%2F%2Fh%2Fc%2Fb%3Fsv%3D2023-11-03%26sig%3DRWNob2Vk%252BU2ln%26se%3D2030";
  std::string r = RedactText(echoed);
  CHECK(r.find("RWNob2Vk") == std::string::npos);
  CHECK(r.find("sig%3DREDACTED%26se%3D2030") != std::string::npos);
  CHECK(RedactText("x?SIG%3Dabc").find("abc") == std::string::npos);
  CHECK(RedactText("size%3D10%26a%3Db") == "size%3D10%26a%3Db");  // nothing secret: unchanged
}

TEST_CASE("secret-named assignments lose their values, in env and YAML form") {
  const std::string env_dump("PATH=/bin\0AZURE_STORAGE_KEY=a2V5a2V5\0HOME=/root", 47);
  std::string r = RedactText(env_dump);
  CHECK(r.find("a2V5a2V5") == std::string::npos);
  CHECK(r.find("PATH=/bin") != std::string::npos);
  CHECK(RedactText("CLIENT_SECRET=abc def").find("abc") == std::string::npos);
  CHECK(RedactText("  AZURE_STORAGE_SAS_TOKEN: \"sv=1&sp=r\"").find("sp=r") == std::string::npos);
  CHECK(RedactText("duplicate key: 'x'") == "duplicate key: 'x'");  // prose stays
  CHECK(RedactText("MONKEY=banana") == "MONKEY=banana");
  CHECK(LooksLikeSecretName("AZURE_STORAGE_KEY"));
  CHECK(LooksLikeSecretName("AccountKey"));
  CHECK(LooksLikeSecretName("client_secret"));
  CHECK_FALSE(LooksLikeSecretName("MONKEY"));
  CHECK_FALSE(LooksLikeSecretName("DATASET_MOUNT_READ_THREADS"));
}

TEST_CASE("a password in a URL's userinfo is redacted, the user kept") {
  CHECK(RedactUrl("wasbs://c:pw123456@acct.blob.core.windows.net/x") ==
        "wasbs://c:REDACTED@acct.blob.core.windows.net/x");
  CHECK(RedactText("see http://u:pw123456@h/x and more").find("pw123456") == std::string::npos);
  CHECK(RedactUrl("http://[::1]:10000/a@b") == "http://[::1]:10000/a@b");
}

TEST_CASE("the values of the credentials this process holds are scrubbed everywhere") {
  ForgetKnownSecretsForTest();
  CHECK(RedactText("name-KnownSecretValue42.bin") == "name-KnownSecretValue42.bin");
  RegisterKnownSecret("KnownSecretValue42");
  RegisterKnownSecret("short");  // too short to be told from a word: not scrubbed
  CHECK(RedactText("name-KnownSecretValue42.bin") == "name-REDACTED.bin");
  CHECK(RedactUrl("http://h/c/KnownSecretValue42") == "http://h/c/REDACTED");
  CHECK(ScrubKnownSecrets("a short b") == "a short b");
  ForgetKnownSecretsForTest();
}
