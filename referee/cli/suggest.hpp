#pragma once
// "Did you mean": what `referee` adds to CLI11's message when a command or a flag is misspelt
// (`referee plya`, `league --concurrenc 2`), from the names the command line accepts there.

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace arena::cli {

// The edit distance between a and b (optimal string alignment: insertions, deletions,
// substitutions and transpositions of two neighbours, each costing 1).
std::size_t edit_distance(std::string_view a, std::string_view b);

// The name of `names` closest to `typed` when it is close enough to be a slip (at most 2 edits,
// and fewer than half of typed's letters); "" when none is.
std::string closest_name(std::string_view typed, const std::vector<std::string>& names);

// The hint for a command line CLI11 refused, e.g. "did you mean `referee play`?" or "did you mean
// --seed (for --sed)?", one line each; "" when no word of `args` (argv without the program) is a
// near miss of a command or of a long flag of the command it follows.
std::string did_you_mean(const CLI::App& app, const std::vector<std::string>& args);

}  // namespace arena::cli
