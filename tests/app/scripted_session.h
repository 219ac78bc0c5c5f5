// A ProbeSessionRequest whose connections all go to one ScriptedHttpClient, and an environment
// with exactly the variables a test sets: workflow tests without a server or the caller's
// credentials.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "app/probe_session.h"
#include "tests/fakes/scripted_http_client.h"

namespace feedcheck::testing {

inline ClientFactory ForwardTo(std::shared_ptr<ScriptedHttpClient> client) {
  return [client]() -> std::unique_ptr<HttpClient> {
    struct Forward : HttpClient {
      std::shared_ptr<ScriptedHttpClient> c;
      HttpResponse Perform(const HttpRequest& r) override { return c->Perform(r); }
    };
    auto f = std::make_unique<Forward>();
    f->c = client;
    return f;
  };
}

inline GetEnvFn EnvWith(std::map<std::string, std::string> vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

inline app::ProbeSessionRequest ScriptedSession(const std::string& target,
                                                std::shared_ptr<ScriptedHttpClient> client,
                                                std::map<std::string, std::string> env = {}) {
  app::ProbeSessionRequest r;
  r.target = target;
  r.duration = "5s";
  r.make_client = ForwardTo(std::move(client));
  r.get_env = EnvWith(std::move(env));
  return r;
}

/// The byte count of an "x-ms-range: bytes=A-B" header; 0 without one.
inline uint64_t RangeBytes(const HttpRequest& r) {
  for (const auto& [k, v] : r.headers) {
    if (k != "x-ms-range" && k != "Range") continue;
    auto dash = v.find('-');
    return std::stoull(v.substr(dash + 1)) - std::stoull(v.substr(6, dash - 6)) + 1;
  }
  return 0;
}

/// An Azure error answer: status, x-ms-error-code and the XML body the service sends.
inline HttpResponse AzureError(int status, const std::string& code) {
  HttpResponse r;
  r.status = status;
  r.headers["x-ms-error-code"] = code;
  r.body = "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>" + code +
           "</Code><Message>refused</Message></Error>";
  return r;
}

}  // namespace feedcheck::testing
