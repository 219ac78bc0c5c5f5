#include "analyzers/tracing_line.h"

#include <catch2/catch.hpp>
#include <cctype>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "analyzers/text_util.h"
#include "analyzers/timestamp.h"

using namespace feedcheck::analyzers;

// The guide's line (Azure ML docs, "Access data in a job", section "Using logs to diagnose
// issues"), verbatim.
static const char* kGuideLine =
    "2023-05-18T14:08:25.388670Z  INFO copy_uri:copy_uri:copy_dataset:write_streams_to_files:"
    "collect:reduce:reduce_and_combine:reduce:get_iter: rslex::prefetching: close "
    "time.busy=23.2\xC2\xB5s time.idle=1.90\xC2\xB5s "
    "sessionId=012ea46a-341c-4258-8aba-90bde4fdfb51 "
    "source=Dataset[Partitions: 1, Sources: 1] file_name_column=None break_on_first_error=true "
    "skip_existing_files=false parallelization_degree=4 self=Dataset[Partitions: 1, Sources: 1] "
    "parallelization_degree=4 self=Dataset[Partitions: 1, Sources: 1] parallelization_degree=4 "
    "self=Dataset[Partitions: 1, Sources: 1] parallelization_degree=4 i=0 index=0";

TEST_CASE("the guide's rslex line parses to exactly its values", "[analyzers][tracing]") {
  TracingLine t;
  REQUIRE(ParseTracingLine(kGuideLine, &t));
  REQUIRE(t.has_time);
  CHECK(t.epoch_s == Approx(static_cast<double>(DaysFromCivil(2023, 5, 18)) * 86400.0 + 14 * 3600 +
                            8 * 60 + 25.388670)
                         .epsilon(1e-12));
  CHECK(t.level == TraceLevel::kInfo);
  CHECK(t.spans ==
        "copy_uri:copy_uri:copy_dataset:write_streams_to_files:collect:reduce:reduce_and_combine:"
        "reduce:get_iter");
  CHECK(t.LeafSpan() == "get_iter");
  CHECK(t.target == "rslex::prefetching");
  CHECK(t.message == "close");
  CHECK(*ParseTracingDurationNs(*t.Field("time.busy")) == Approx(23200.0));
  CHECK(*ParseTracingDurationNs(*t.Field("time.idle")) == Approx(1900.0));
  CHECK(*t.Field("source") == "Dataset[Partitions: 1, Sources: 1]");
  CHECK(*t.Field("sessionId") == "012ea46a-341c-4258-8aba-90bde4fdfb51");
  int degree_fields = 0;
  for (const auto& f : t.fields)
    if (f.key == "parallelization_degree") {
      ++degree_fields;
      CHECK(f.value == "4");
    }
  CHECK(degree_fields == 4);  // repeated keys are all kept
  CHECK(*t.LastField("index") == "0");
  CHECK(t.fields.size() == 16);
}

TEST_CASE("duration units of TimingDisplay", "[analyzers][tracing]") {
  CHECK(*ParseTracingDurationNs("1.00ns") == Approx(1));
  CHECK(*ParseTracingDurationNs("123ns") == Approx(123));
  CHECK(*ParseTracingDurationNs("23.2\xC2\xB5s") == Approx(23200));  // U+00B5 micro sign
  CHECK(*ParseTracingDurationNs("23.2\xCE\xBCs") == Approx(23200));  // U+03BC greek mu
  CHECK(*ParseTracingDurationNs("23.2us") == Approx(23200));
  CHECK(*ParseTracingDurationNs("1.22ms") == Approx(1.22e6));
  CHECK(*ParseTracingDurationNs("12.3s") == Approx(12.3e9));
  CHECK(*ParseTracingDurationNs("1235s") == Approx(1235e9));
  CHECK_FALSE(ParseTracingDurationNs("12.3"));
  CHECK_FALSE(ParseTracingDurationNs("12.3min"));
  CHECK_FALSE(ParseTracingDurationNs("abc"));
  CHECK_FALSE(ParseTracingDurationNs(""));
}

TEST_CASE("a line without spans has only a target", "[analyzers][tracing]") {
  TracingLine t;
  REQUIRE(ParseTracingLine(
      "2024-01-01T00:00:00.000000Z  INFO rslex_http_stream::retry: "
      "AZUREML_DATASET_HTTP_RETRY_COUNT set in environment, using for http client: 10 "
      "num_retries=10",
      &t));
  CHECK(t.spans.empty());
  CHECK(t.target == "rslex_http_stream::retry");
  CHECK(t.message ==
        "AZUREML_DATASET_HTTP_RETRY_COUNT set in environment, using for http client: 10");
  CHECK(*t.Field("num_retries") == "10");
}

TEST_CASE("a message with brackets and colons stays whole", "[analyzers][tracing]") {
  TracingLine t;
  REQUIRE(ParseTracingLine(
      "2024-01-01T00:00:00.000000Z  WARN rslex_http_stream::http_client::response: "
      "non-successful response Status: 403 Forbidden Headers: { \"x-ms-error-code\": "
      "\"KeyBasedAuthenticationNotPermitted\", ... } method=HEAD "
      "request_uri=https://a.blob.core.windows.net/c/train.csv",
      &t));
  CHECK(t.level == TraceLevel::kWarn);
  CHECK(t.message.find("Status: 403") != std::string_view::npos);
  CHECK(t.message.find("KeyBasedAuthenticationNotPermitted") != std::string_view::npos);
  CHECK(*t.Field("method") == "HEAD");
  CHECK(*t.Field("request_uri") == "https://a.blob.core.windows.net/c/train.csv");
}

TEST_CASE("a line without timestamp is accepted; garbage is not", "[analyzers][tracing]") {
  TracingLine t;
  REQUIRE(ParseTracingLine("ERROR rslex::python_error_handling: Execution has failed", &t));
  CHECK_FALSE(t.has_time);
  CHECK(t.level == TraceLevel::kError);
  CHECK_FALSE(ParseTracingLine("note: run with `RUST_BACKTRACE=1`", &t));
  CHECK_FALSE(ParseTracingLine("2023-05-18T14:08:25.388670Z", &t));
  CHECK_FALSE(ParseTracingLine("2023-05-18T14:08:25.388670Z NOTICE x: y", &t));
  CHECK_FALSE(ParseTracingLine(std::string("\xff\xfe\0\x01", 4), &t));
}

TEST_CASE("fields tokenize at ' ident=' only", "[analyzers][tracing]") {
  std::vector<TraceField> f;
  TokenizeFields("a=1 b=x y=z? c=[1, 2] d= e=\"q r\"", &f);
  REQUIRE(f.size() == 6);
  CHECK(f[0].value == "1");
  CHECK(f[1].key == "b");
  CHECK(f[1].value == "x");
  CHECK(f[2].key == "y");
  CHECK(f[2].value == "z?");
  CHECK(f[3].value == "[1, 2]");
  CHECK(f[4].value.empty());
  CHECK(f[5].value == "\"q r\"");
}

TEST_CASE("an '=' inside a value or after a non-space is not a key", "[analyzers][tracing]") {
  // The tokenizer finds keys from their '=' backwards: the same keys as trying one after every
  // space, on the cases that could differ.
  std::vector<TraceField> f;
  TokenizeFields("url=https://a.b/c?x=1&y=2 h=a=b=c s=[k=v] 9x=1 _u.v=2 w=x  t=  =q z=end", &f);
  REQUIRE(f.size() == 7);
  CHECK(f[0].key == "url");
  CHECK(f[0].value == "https://a.b/c?x=1&y=2");
  CHECK(f[1].key == "h");
  CHECK(f[1].value == "a=b=c");
  CHECK(f[2].key == "s");
  CHECK(f[2].value == "[k=v] 9x=1");  // a key cannot start with a digit
  CHECK(f[3].key == "_u.v");
  CHECK(f[4].key == "w");
  CHECK(f[4].value == "x");
  CHECK(f[5].key == "t");
  CHECK(f[5].value == "  =q");  // " =q": no identifier before that '='
  CHECK(f[6].key == "z");
  CHECK(f[6].value == "end");
  f.clear();
  TokenizeFields("no fields here, just = signs = ", &f);
  CHECK(f.empty());
  TracingLine t;
  REQUIRE(ParseTracingLine("2024-05-01T09:00:00Z  INFO a::b: msg[x=1] k=v", &t));
  CHECK(t.message == "msg[x=1]");
  REQUIRE(t.fields.size() == 1);
  CHECK(t.fields[0].key == "k");
}

namespace {

// The definition, spelled out the slow way: a key is "<ident>=" at the start or right after a
// space; a value runs to the space before the next key, trailing spaces trimmed.
std::vector<std::pair<std::string, std::string>> ReferenceFields(const std::string& s) {
  auto ident_start = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  auto ident = [&](char c) {
    return ident_start(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '.';
  };
  auto key_at = [&](size_t p) -> size_t {
    if (p >= s.size() || !ident_start(s[p])) return 0;
    size_t i = p + 1;
    while (i < s.size() && ident(s[i])) ++i;
    return i < s.size() && s[i] == '=' ? i - p + 1 : 0;
  };
  std::vector<size_t> starts;
  for (size_t p = 0; p < s.size(); ++p)
    if ((p == 0 || s[p - 1] == ' ') && key_at(p)) starts.push_back(p);
  std::vector<std::pair<std::string, std::string>> out;
  for (size_t k = 0; k < starts.size(); ++k) {
    size_t len = key_at(starts[k]);
    // A key inside the previous key's value cannot start before that value does.
    if (k > 0 && starts[k] < starts[k - 1] + key_at(starts[k - 1])) continue;
    size_t v = starts[k] + len;
    size_t end = s.size();
    for (size_t j = k + 1; j < starts.size(); ++j)
      if (starts[j] > v) {
        end = starts[j] - 1;
        break;
      }
    std::string value = s.substr(v, end - v);
    while (!value.empty() && value.back() == ' ') value.pop_back();
    out.push_back({s.substr(starts[k], len - 1), value});
  }
  return out;
}

}  // namespace

TEST_CASE("the tokenizer agrees with the definition on random lines", "[analyzers][tracing]") {
  std::mt19937 rng(7);
  const std::string alphabet = "ab_.1= =  [:]";
  for (int n = 0; n < 20000; ++n) {
    std::string line;
    size_t len = rng() % 40;
    for (size_t i = 0; i < len; ++i) line += alphabet[rng() % alphabet.size()];
    std::vector<TraceField> got;
    TokenizeFields(line, &got);
    auto want = ReferenceFields(line);
    INFO("line '" << line << "'");
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      CHECK(std::string(got[i].key) == want[i].first);
      CHECK(std::string(got[i].value) == want[i].second);
    }
  }
}

TEST_CASE("a field looked up without tokenizing is the tokenizer's field", "[analyzers][tracing]") {
  // FindTracingField must give, for every key, the first field of that name and, in a loop, each
  // of them in line order: what TokenizeFields gives, on the cases that could differ.
  std::mt19937 rng(11);
  const std::string alphabet = "ab_.1= =  [:]";
  const std::vector<std::string> keys = {"a", "b", "ab", "a.b", "_", "b_1", "a1"};
  for (int n = 0; n < 20000; ++n) {
    std::string line;
    size_t len = rng() % 48;
    for (size_t i = 0; i < len; ++i) line += alphabet[rng() % alphabet.size()];
    std::vector<TraceField> fields;
    TokenizeFields(line, &fields);
    if (fields.empty()) continue;
    // TracingLine::fields_text starts at the first key.
    std::string_view text(line);
    text.remove_prefix(static_cast<size_t>(fields.front().key.data() - line.data()));
    INFO("fields '" << text << "'");
    for (const auto& key : keys) {
      std::vector<std::string_view> want;
      for (const auto& f : fields)
        if (f.key == key) want.push_back(f.value);
      std::vector<std::string_view> got;
      size_t from = 0;
      while (auto v = FindTracingField(text, key, &from)) got.push_back(*v);
      INFO("key " << key);
      REQUIRE(got.size() == want.size());
      for (size_t i = 0; i < got.size(); ++i) {
        CHECK(got[i] == want[i]);
        CHECK(got[i].data() == want[i].data());  // the same bytes of the line
      }
      auto first = FindTracingField(text, key);
      CHECK(first.has_value() == !want.empty());
      if (first && !want.empty()) CHECK(*first == want.front());
    }
  }
  CHECK_FALSE(FindTracingField("", "a"));
  CHECK(*FindTracingField("time.busy=3.41ms time.idle=187ms x=1", "time.idle") == "187ms");
  CHECK(*FindTracingField("a=x time.idle=1 b=y", "time.idle") == "1");
  CHECK_FALSE(FindTracingField("a=xtime.idle=1", "time.idle"));  // inside a value
}

TEST_CASE("a line head read from the cache is the head the scan reads", "[analyzers][tracing]") {
  // Heads that repeat, that differ only after their first token, that are not targets, that
  // end the line, and more distinct heads than the cache has slots.
  std::vector<std::string> lines = {
      kGuideLine,
      "2023-05-18T14:08:25.388670Z  INFO copy_uri:copy_uri:combine: rslex::dataset_crossbeam: "
      "close time.busy=1.22ms time.idle=9.50\xC2\xB5s",
      "2025-10-14T06:41:02.532629Z DEBUG run: rslex_http_stream::retry::retry_strategy: "
      "[RetryStrategy::run()] retrying after delay: 2000ms tries=1 should_retry=true",
      "2025-10-14T06:41:02.532578Z  WARN rslex_http_stream::http_client::response: "
      "[AsyncResponse::success()] non-successful response",
      "2024-01-01T00:00:00Z  INFO a:b: message: with colons k=v",
      "2024-01-01T00:00:00Z  INFO a:b:c: x::y: msg",
      "2024-01-01T00:00:00Z  INFO a:b:c: x::y:",
      "2024-01-01T00:00:00Z  INFO a:b:c: x::y",
      "2024-01-01T00:00:00Z  INFO a:b:  x::y: two spaces",
      "2024-01-01T00:00:00Z  INFO target: message",
      "2024-01-01T00:00:00Z  INFO target:",
      "2024-01-01T00:00:00Z  INFO not a target k=v",
      "2024-01-01T00:00:00Z  INFO crate::module: close time.busy=1s",
      "2024-01-01T00:00:00Z  INFO crate::module: close",
      "ERROR rslex::python_error_handling: Execution has failed with: X, y",
  };
  for (int i = 0; i < 12; ++i)
    lines.push_back("2024-01-01T00:00:00Z  INFO span" + std::to_string(i) +
                    ": mod::t: close time.busy=1ms");
  TracingLineCache cache;
  std::mt19937 rng(3);
  for (int n = 0; n < 2000; ++n) {
    const std::string& line = lines[rng() % lines.size()];
    INFO("line '" << line << "'");
    TracingLine want, got;
    REQUIRE(ParseTracingLine(line, &want));
    REQUIRE(ParseTracingHead(line, &got, &cache));
    CHECK(got.has_time == want.has_time);
    CHECK(got.epoch_s == want.epoch_s);
    CHECK(got.level == want.level);
    CHECK(got.spans == want.spans);
    CHECK(got.target == want.target);
    CHECK(got.message == want.message);
    CHECK(got.fields.empty());
    std::vector<TraceField> fields;
    TokenizeFields(got.fields_text, &fields);
    REQUIRE(fields.size() == want.fields.size());
    for (size_t i = 0; i < fields.size(); ++i) {
      CHECK(fields[i].key == want.fields[i].key);
      CHECK(fields[i].value == want.fields[i].value);
    }
  }
  // A head seen before is a hit: the same id as the last time, while it stays in the cache.
  TracingLine a, b;
  REQUIRE(ParseTracingHead(kGuideLine, &a, &cache));
  REQUIRE(ParseTracingHead(kGuideLine, &b, &cache));
  CHECK(a.scope_id != 0);
  CHECK(a.scope_id == b.scope_id);
}

TEST_CASE("durations read as std::from_chars reads their number", "[analyzers][tracing]") {
  // The integer fast path must give the very double the general parser gives.
  std::mt19937 rng(5);
  const char* units[] = {"ns", "\xC2\xB5s", "us", "ms", "s"};
  const double scale[] = {1, 1e3, 1e3, 1e6, 1e9};
  for (int n = 0; n < 50000; ++n) {
    std::string number = std::to_string(rng() % 100000);
    if (rng() % 4 != 0) {
      number += '.';
      size_t digits = 1 + rng() % 12;
      for (size_t i = 0; i < digits; ++i) number += static_cast<char>('0' + rng() % 10);
    }
    size_t u = rng() % 5;
    std::string text = number + units[u];
    size_t used = 0;
    auto want = ParseDoublePrefix(number, &used);
    REQUIRE(want);
    INFO(text);
    auto got = ParseTracingDurationNs(text);
    REQUIRE(got);
    CHECK(*got == *want * scale[u]);
  }
  CHECK(*ParseTracingDurationNs("1.5e3ns") == 1500);  // an exponent: the general parser
  CHECK(*ParseTracingDurationNs("1.ms") == 1e6);
  CHECK(*ParseTracingDurationNs("12345678901234567.5ns") == 12345678901234567.5);
  CHECK_FALSE(ParseTracingDurationNs("1.5"));
  CHECK_FALSE(ParseTracingDurationNs("0x10ns"));
}

TEST_CASE("a timestamp's fraction sums as the per-digit division did", "[analyzers][tracing]") {
  // The weights are a table now; the epoch must be the same double as when each digit's weight
  // was divided by 10 from the last, so times never move between versions.
  std::mt19937 rng(9);
  auto r = [&](unsigned n) { return static_cast<unsigned>(rng() % n); };
  for (int n = 0; n < 20000; ++n) {
    size_t digits = 1 + rng() % 11;
    std::string fraction;
    for (size_t i = 0; i < digits; ++i) fraction += static_cast<char>('0' + rng() % 10);
    char head[32];
    std::snprintf(head, sizeof(head), "20%02u-%02u-%02uT%02u:%02u:%02u.", r(60), 1 + r(12),
                  1 + r(28), r(24), r(60), r(60));
    std::string text = head + fraction + "Z";
    double want_fraction = 0, scale = 0.1;
    for (size_t i = 0; i < digits; ++i) {
      if (i < 9) want_fraction += (fraction[i] - '0') * scale;
      scale /= 10;
    }
    int y = std::stoi(text.substr(0, 4)), mo = std::stoi(text.substr(5, 2)),
        d = std::stoi(text.substr(8, 2)), h = std::stoi(text.substr(11, 2)),
        mi = std::stoi(text.substr(14, 2)), s = std::stoi(text.substr(17, 2));
    double want =
        static_cast<double>(DaysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d))) *
            86400.0 +
        h * 3600.0 + mi * 60.0 + s + want_fraction - 0.0;
    INFO(text);
    size_t used = 0;
    auto got = ParseTimestampPrefix(text, &used);
    REQUIRE(got);
    CHECK(used == text.size());
    CHECK(*got == want);
  }
}

TEST_CASE("a timestamp read through the minute cache is the one read without",
          "[analyzers][tracing]") {
  // Lines of one minute in a row (the cache hits), minutes that change, and texts that share a
  // cached minute but fail later (a bad second, no fraction digit) or earlier (a bad month).
  std::mt19937 rng(13);
  auto r = [&](unsigned n) { return static_cast<unsigned>(rng() % n); };
  TimestampCache cache;
  const char* tails[] = {".388670Z", "Z", ".5", ",790", "+02:00", ".1-05:30", ".", "x", ""};
  for (int n = 0; n < 20000; ++n) {
    char text[64];
    unsigned minute = r(4), month = r(20) == 0 ? 13 : 1 + r(12);
    std::snprintf(text, sizeof(text), "2024-%02u-0%uT10:%02u:%02u%s", month, 1 + r(2), minute,
                  r(20) == 0 ? 61 : r(60), tails[r(9)]);
    INFO(text);
    size_t used_plain = 0, used_cached = 0;
    auto plain = ParseTimestampPrefix(text, &used_plain);
    auto cached = ParseTimestampPrefix(text, &used_cached, &cache);
    REQUIRE(plain.has_value() == cached.has_value());
    if (plain) {
      CHECK(*plain == *cached);
      CHECK(used_plain == used_cached);
    }
  }
}
