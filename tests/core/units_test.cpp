#include "core/units.h"

#include <catch2/catch.hpp>
#include <cctype>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "core/fact.h"
#include "core/fact_set.h"

using namespace feedcheck;

TEST_CASE("1,500 Mbit/s is 187.5 MB/s", "[core][units]") {
  auto bits = ParseBitsPerSecond("1,500 Mbit/s");
  REQUIRE(bits);
  CHECK(*bits == Approx(1.5e9));
  CHECK(*Convert(1500, Unit::kMbps, Unit::kBytesPerSecond) == Approx(187.5e6));
  CHECK(FormatByteRate(*bits / 8) == "188 MB/s");  // 187.5 rounds at three digits
  CHECK(*Convert(187.5e6, Unit::kBytesPerSecond, Unit::kGbps) == Approx(1.5));
}

TEST_CASE("sizes parse in decimal and binary units", "[core][units]") {
  CHECK(*ParseBytes("4MiB") == 4194304.0);
  CHECK(*ParseBytes("4 MiB") == 4194304.0);
  CHECK(*ParseBytes("4M") == 4194304.0);
  CHECK(*ParseBytes("500KB") == 500000.0);
  CHECK(*ParseBytes("1GB") == 1e9);
  CHECK(*ParseBytes("1GiB") == 1073741824.0);
  CHECK(*ParseBytes("1TB") == 1e12);
  CHECK(*ParseBytes("1.5TiB") == Approx(1.5 * 1099511627776.0));
  CHECK(*ParseBytes("50,000 MB") == 5e10);
  CHECK(*ParseBytes("123") == 123.0);
}

TEST_CASE("bad sizes and rates say what is wrong", "[core][units]") {
  std::string err;
  CHECK_FALSE(ParseBytes("4 parsecs", &err));
  CHECK(err.find("unknown unit 'parsecs'") != std::string::npos);
  CHECK_FALSE(ParseBytes("fast", &err));
  CHECK(err.find("not a number") != std::string::npos);
  CHECK_FALSE(ParseBytes("10Gbit/s", &err));
  CHECK(err.find("is a rate, expected a size") != std::string::npos);
  CHECK_FALSE(ParseBitsPerSecond("24", &err));
  CHECK(err.find("needs a unit") != std::string::npos);
  CHECK_FALSE(ParseBytes("-4MiB", &err));
  CHECK_FALSE(ParseBytes("", &err));
}

TEST_CASE("rates parse in bits and bytes", "[core][units]") {
  CHECK(*ParseBitsPerSecond("24Gbit/s") == 24e9);
  CHECK(*ParseBitsPerSecond("24 Gbps") == 24e9);
  CHECK(*ParseBitsPerSecond("187.5MB/s") == Approx(1.5e9));
  CHECK(*ParseBitsPerSecond("100 MiB/s") == Approx(100.0 * 1048576 * 8));
  CHECK(*ParseBitsPerSecond("1 Tbit/s") == Approx(1e12));
}

TEST_CASE("durations parse including the micro sign", "[core][units]") {
  CHECK(*ParseSeconds("23.2\xC2\xB5s") == Approx(23.2e-6));
  CHECK(*ParseSeconds("23.2us") == Approx(23.2e-6));
  CHECK(*ParseSeconds("1.22ms") == Approx(1.22e-3));
  CHECK(*ParseSeconds("123ns") == Approx(123e-9));
  CHECK(*ParseSeconds("2min") == 120.0);
  CHECK(*ParseSeconds("20") == 20.0);
}

TEST_CASE("durations as warp and fio users type them: 2m, 1h30m, 1m30s", "[core][units]") {
  CHECK(*ParseSeconds("90s") == 90.0);
  CHECK(*ParseSeconds("2m") == 120.0);
  CHECK(*ParseSeconds("1h30m") == 5400.0);
  CHECK(*ParseSeconds("1m30s") == 90.0);
  CHECK(*ParseSeconds("2m500ms") == Approx(120.5));
  CHECK(*ParseSeconds("1.5h") == 5400.0);
  std::string err;
  // Out of order, a unit twice, no number, or trailing junk: refused with the accepted forms.
  CHECK_FALSE(ParseSeconds("30m1h", &err));
  CHECK(err.find("1h30m") != std::string::npos);
  CHECK_FALSE(ParseSeconds("1m1m", &err));
  CHECK_FALSE(ParseSeconds("m", &err));
  CHECK_FALSE(ParseSeconds("1h30x", &err));
  CHECK_FALSE(ParseSeconds("soon", &err));
}

TEST_CASE("size suffixes in any case keep their base", "[core][units]") {
  CHECK(*ParseBytes("4mib") == 4194304.0);
  CHECK(*ParseBytes("4MIB") == 4194304.0);
  CHECK(*ParseBytes("100gb") == 1e11);  // GB: a power of 1000, whatever its case
  CHECK(*ParseBytes("64k") == 65536.0);
  CHECK(*ParseBytes("1 tib") == 1099511627776.0);
  std::string err;
  CHECK_FALSE(ParseBytes("4 mibs", &err));
  CHECK(err.find("unknown unit 'mibs'") != std::string::npos);
}

TEST_CASE("quantities keep their unit for the condition language", "[core][units]") {
  auto q = ParseQuantity("24Gbit/s");
  REQUIRE(q);
  CHECK(q->unit == Unit::kGbps);
  CHECK(q->value == 24.0);
  auto ms = ParseQuantity("20ms");
  REQUIRE(ms);
  CHECK(ms->unit == Unit::kMilliseconds);
  CHECK_FALSE(Convert(1, Unit::kBytes, Unit::kGbps));
  CHECK(*Convert(50, Unit::kPercent, Unit::kFraction) == Approx(0.5));
}

TEST_CASE("values print for humans", "[core][units]") {
  CHECK(FormatBytes(4194304) == "4.00 MiB");
  CHECK(FormatBytes(500000, true) == "500 KB");
  CHECK(FormatBitRate(24e9) == "24.0 Gbit/s");
  CHECK(FormatBitRate(1.5e9) == "1.50 Gbit/s");
  CHECK(FormatSeconds(266.666) == "4 min 27 s");
  CHECK(FormatSeconds(1259.6) == "21 min 0 s");  // rounded first, never "20 min 60 s"
  CHECK(FormatSeconds(7199.9) == "2 h 0 min");
  CHECK(FormatSeconds(0.0232) == "23.2 ms");
  // Past two days in days and hours, past two years in years.
  CHECK(FormatSeconds(47 * 3600 + 1740) == "47 h 29 min");
  CHECK(FormatSeconds(250'000'000 / 100.0) == "28 d 22 h");
  CHECK(FormatSeconds(250'000'000) == "7.92 years");
  CHECK(FormatSeconds(1e12) == "31,688 years");
  CHECK(FormatValue(0.95, Unit::kFraction) == "95%");
  CHECK(FormatNumber(120) == "120");
  CHECK(FormatNumber(1.0 / 3) == "0.333");
}

TEST_CASE("sizes echo the way they were typed", "[core][units]") {
  // Round in powers of 1000 only: what someone wrote as 100GB, 1MB or 1.5TB.
  CHECK(FormatBytes(*ParseBytes("100GB")) == "100 GB");
  CHECK(FormatBytes(*ParseBytes("1MB")) == "1 MB");
  CHECK(FormatBytes(*ParseBytes("1.5TB")) == "1.5 TB");
  CHECK(FormatBytes(*ParseBytes("500KB")) == "500 KB");
  // Round in powers of 1024 (or both): binary, as before.
  CHECK(FormatBytes(*ParseBytes("64MiB")) == "64.0 MiB");
  CHECK(FormatBytes(*ParseBytes("100GiB")) == "100 GiB");
  // Measured sizes, round in neither: binary.
  CHECK(FormatBytes(123456789) == "118 MiB");
  CHECK(FormatValue(1e11, Unit::kBytes) == "100 GB");
}

TEST_CASE("large counts and rates carry thousands separators", "[core][units]") {
  CHECK(FormatGrouped(549316) == "549,316");
  CHECK(FormatGrouped(549316.4) == "549,316");
  CHECK(FormatGrouped(-1234567) == "-1,234,567");
  CHECK(FormatGrouped(999) == "999");
  CHECK(FormatGrouped(0.25) == "0.25");
  CHECK(FormatGrouped(1234.5, 5) == "1,234.5");
  CHECK(FormatValue(549316.4, Unit::kPerSecond) == "549,316/s");
  CHECK(FormatValue(2001, Unit::kCount) == "2,001");
  CHECK(FormatValue(12.5, Unit::kPerSecond) == "12.5/s");
}

TEST_CASE("a quantity whose unit scales it past a double is an error, not infinity",
          "[core][units]") {
  // Found by fuzz_units: the number 1e308 is finite, 1e308 TB is not.
  std::string err;
  CHECK_FALSE(ParseQuantity("1e308TB", &err));
  CHECK(err == "'1e308TB' is too large");
  CHECK_FALSE(ParseBytes("1e308 PiB", &err));
  CHECK_FALSE(ParseSeconds("1e308h", &err));
  CHECK_FALSE(ParseBitsPerSecond("1.7e308 Mbit/s", &err));  // finite in Mbit/s, not in bit/s
  CHECK(err == "'1.7e308 Mbit/s' is too large");
  CHECK(*ParseBytes("1e290TB") == Approx(1e302));  // large but finite is fine
}

TEST_CASE("disk speeds read in bytes per second, as fio prints them", "[core][units]") {
  Provenance p{FactOrigin::kMeasured, "probe disk"};
  CHECK(FormatFactValue(NumberFact("probe.disk.read_gbps", 16, Unit::kGbps, p)) == "2.00 GB/s");
  CHECK(FormatFactValue(NumberFact("probe.disk.write_gbps", 4, Unit::kGbps, p)) == "500 MB/s");
  // Network rates stay in bits.
  CHECK(FormatFactValue(NumberFact("probe.throughput.gbps", 16, Unit::kGbps, p)) == "16.0 Gbit/s");
}

namespace {

bool PrintsNotFinite(const std::string& text) {
  std::string lower;
  for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower.find("inf") != std::string::npos || lower.find("nan") != std::string::npos;
}

}  // namespace

TEST_CASE("no formatter prints inf or nan, whatever the value and unit", "[core][units][finite]") {
  // A property over every unit and every formatter: non-finite values, and finite ones whose
  // conversion to the printed unit overflows (1e308 Gbit/s is 1e317 bit/s), print "n/a".
  const double value =
      GENERATE(std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
               -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::max(),
               -std::numeric_limits<double>::max(), 1e308, 1.5e300, 0.0, 12.5);
  std::vector<std::string> printed = {
      FormatNumber(value),  FormatGrouped(value),  FormatBytes(value),  FormatBytes(value, true),
      FormatBitRate(value), FormatByteRate(value), FormatSeconds(value)};
  for (Unit unit :
       {Unit::kCount, Unit::kBytes, Unit::kGbps, Unit::kMbps, Unit::kBytesPerSecond, Unit::kSeconds,
        Unit::kMilliseconds, Unit::kMicroseconds, Unit::kPerSecond, Unit::kFraction, Unit::kPercent,
        Unit::kCpuSecondsPerGB, Unit::kText, Unit::kBool}) {
    printed.push_back(FormatValue(value, unit));
    printed.push_back(FormatFactValue(NumberFact("x", value, unit, {})));
  }
  for (const std::string& text : printed) {
    INFO(value << " printed as '" << text << "'");
    CHECK_FALSE(PrintsNotFinite(text));
    CHECK_FALSE(text.empty());
    if (!std::isfinite(value)) CHECK(text == kNotFiniteText);
  }
}

TEST_CASE("a number that is not finite is not a fact", "[core][units][finite]") {
  FactSet facts;
  facts.Set(NumberFact("storage.egress_gbps", 2.0, Unit::kGbps, {}));
  const double bad =
      GENERATE(std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
               -std::numeric_limits<double>::infinity());
  facts.Set(NumberFact("storage.egress_gbps", bad, Unit::kGbps, {}));
  facts.Set(NumberFact("node.count", bad, Unit::kCount, {}));
  CHECK_FALSE(facts.Has("storage.egress_gbps"));
  CHECK_FALSE(facts.Has("node.count"));
  CHECK(facts.NotFinite() == std::set<std::string>{"node.count", "storage.egress_gbps"});
  FactSet merged;
  merged.Merge(facts);
  CHECK(merged.NotFinite() == facts.NotFinite());
}

TEST_CASE("quantities that are not finite are refused by every unit parser",
          "[core][units][finite]") {
  const std::string text = GENERATE("nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e999",
                                    "-1e999", "1e999 GB", "nan ms", "inf Gbit/s", "1e308 PB");
  std::string error;
  CHECK_FALSE(ParseQuantity(text, &error));
  CHECK_FALSE(ParseBytes(text));
  CHECK_FALSE(ParseBitsPerSecond(text));
  CHECK_FALSE(ParseSeconds(text));
  CHECK_FALSE(error.empty());
}
