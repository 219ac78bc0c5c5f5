#include "core/run_context.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <ctime>

#ifndef FEEDCHECK_VERSION
#define FEEDCHECK_VERSION "dev"
#endif

namespace feedcheck {

double NowEpochSeconds() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

std::string IsoUtc(double epoch_s) {
  std::time_t t = static_cast<std::time_t>(epoch_s);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

RunContext CurrentRunContext(std::string command) {
  RunContext ctx;
  ctx.tool_version = FEEDCHECK_VERSION;
  ctx.command = std::move(command);
  char host[256] = {0};
  if (gethostname(host, sizeof(host) - 1) == 0) ctx.host = host;
  ctx.started_at_utc = IsoUtc(NowEpochSeconds());
#ifdef NDEBUG
  ctx.build_type = "optimized";
#else
  ctx.build_type = "debug";
  ctx.warnings.push_back("debug build: timings are not representative");
#endif
  return ctx;
}

}  // namespace feedcheck
