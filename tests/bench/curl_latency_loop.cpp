// The bare libcurl baseline for the latency probe benchmark (scripts/bench-probes.sh): one easy
// handle, N GETs of the same URL and Range on a reused connection, body dropped, time to first
// byte from CURLINFO_STARTTRANSFER_TIME_T. Prints "p50_ms=<x> requests=<n>".
// Build: g++ -O2 -std=c++20 curl_latency_loop.cpp -lcurl
#include <curl/curl.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

static size_t Drop(char*, size_t size, size_t count, void*) { return size * count; }

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s URL REQUESTS [RANGE]\n", argv[0]);
    return 2;
  }
  const int requests = std::atoi(argv[2]);
  const std::string range = argc > 3 ? argv[3] : "0-4095";
  curl_global_init(CURL_GLOBAL_DEFAULT);
  CURL* h = curl_easy_init();
  curl_easy_setopt(h, CURLOPT_URL, argv[1]);
  curl_easy_setopt(h, CURLOPT_RANGE, range.c_str());
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, Drop);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  std::vector<double> ttfb;
  for (int i = 0; i < requests + 5; ++i) {
    if (curl_easy_perform(h) != CURLE_OK) return 1;
    curl_off_t us = 0;
    curl_easy_getinfo(h, CURLINFO_STARTTRANSFER_TIME_T, &us);
    if (i >= 5) ttfb.push_back(static_cast<double>(us) / 1000.0);  // 5 warm-up requests
  }
  std::sort(ttfb.begin(), ttfb.end());
  std::printf("p50_ms=%.4f requests=%zu\n", ttfb[(ttfb.size() + 1) / 2 - 1], ttfb.size());
  curl_easy_cleanup(h);
  curl_global_cleanup();
  return 0;
}
