#include "referee/cli/suggest.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace arena::cli {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the dynamic programme: two back for the transposition.
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  std::iota(previous.begin(), previous.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        current[j] = std::min(current[j], before[j - 2] + 1);
    }
    before.swap(previous);
    previous.swap(current);
  }
  return previous[b.size()];
}

std::string closest_name(std::string_view typed, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_distance = SIZE_MAX;
  for (const std::string& name : names) {
    const std::size_t d = edit_distance(typed, name);
    if (d < best_distance) {
      best_distance = d;
      best = name;
    }
  }
  const std::size_t letters = typed.size() - (typed.rfind("--", 0) == 0 ? 2 : 0);  // a flag's dashes are no letters
  if (best.empty() || best_distance == 0 || best_distance > 2 || 2 * best_distance >= letters) return "";
  return best;
}

namespace {

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  return names;
}

// The long flags of `app` ("--seed"), and its parents' (a flag may belong to any level).
std::vector<std::string> flag_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* a = &app; a != nullptr; a = a->get_parent()) {
    for (const CLI::Option* o : a->get_options()) {
      for (const std::string& l : o->get_lnames()) names.push_back("--" + l);
    }
  }
  return names;
}

}  // namespace

std::string did_you_mean(const CLI::App& app, const std::vector<std::string>& args) {
  std::string out;
  const CLI::App* at = &app;  // the command the words so far lead to
  bool seen_command = false;
  std::string prefix = "referee";
  for (const std::string& arg : args) {
    if (arg == "--") break;
    if (arg.rfind("--", 0) == 0) {
      const std::string flag = arg.substr(0, arg.find('='));
      const std::vector<std::string> flags = flag_names(*at);
      if (std::find(flags.begin(), flags.end(), flag) != flags.end()) continue;
      const std::string near = closest_name(flag, flags);
      if (!near.empty()) out += fmt::format("did you mean {} (for {})?\n", near, flag);
      continue;
    }
    if (arg.empty() || arg[0] == '-') continue;
    const std::vector<std::string> commands = command_names(*at);
    if (commands.empty()) continue;
    if (std::find(commands.begin(), commands.end(), arg) != commands.end()) {
      at = at->get_subcommand(arg);
      prefix += " " + arg;
      seen_command = true;
      continue;
    }
    // A word where a command is required: the first of the top level, or a command's own
    // subcommand (ladder's) when it takes no other words.
    if (at == &app ||
        (seen_command && at->get_options([](const CLI::Option* o) { return o->get_positional(); }).empty())) {
      const std::string near = closest_name(arg, commands);
      if (!near.empty()) out += fmt::format("did you mean `{} {}` (for {})?\n", prefix, near, arg);
    }
  }
  return out;
}

}  // namespace arena::cli
