// Numbers given as flags are finite: one check on every floating-point flag of a command line.
#pragma once

#include <CLI/CLI.hpp>

namespace feedcheck::cli {

/// Adds to every option of `app` and of all its subcommands that takes a floating-point number
/// (CLI11's type FLOAT) a check refusing nan, inf, -inf and numbers out of double range
/// (1e999): CLI11's Range lets NaN through, since every comparison with NaN is false. Call it
/// once the command line is complete.
void RefuseNonFiniteNumbers(CLI::App& app);

}  // namespace feedcheck::cli
