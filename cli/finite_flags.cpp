#include "cli/finite_flags.h"

#include <cmath>
#include <string>

namespace feedcheck::cli {
namespace {

// No description: the flag's help and its table in docs/commands stay as they are.
const CLI::Validator kFinite(
    [](std::string& text) -> std::string {
      // strtod reads what CLI11's conversion reads: "nan", "inf", "infinity", 1e999 (as inf).
      const char* begin = text.c_str();
      char* end = nullptr;
      const double value = std::strtod(begin, &end);
      if (end == begin) return "";  // not a number: the conversion that follows says so
      if (std::isfinite(value)) return "";
      return "Value " + text + " is not a finite number";
    },
    "", "FINITE");

}  // namespace

void RefuseNonFiniteNumbers(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    // The type name carries its checks' descriptions after a colon: "FLOAT:FLOAT in [0 - 100]".
    const std::string type = option->get_type_name();
    if (type.substr(0, type.find(':')) == "FLOAT") option->check(kFinite);
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    RefuseNonFiniteNumbers(*sub);
}

}  // namespace feedcheck::cli
