#pragma once
// A bot's command line: split like a shell would, named, and checked before anything starts.

#include <filesystem>
#include <string>
#include <vector>

#include "referee/core/result.hpp"

namespace arena::match {

// Splits a command line into argv: whitespace separates, '...' and "..." quote, \ escapes.
Result<std::vector<std::string>> split_command(const std::string& command);

// A word as a POSIX shell (and split_command) reads it back: bare when it holds only safe
// characters, else in single quotes.
std::string shell_quote(const std::string& word);

// A bot's command line parsed once: the text as given and its argv. What the program is comes
// from one list of interpreters (python, python3.11, node, ruby, perl, sh, bash, lua, java, env,
// ...; a version suffix does not matter).
struct BotCommand {
  std::string text;
  std::vector<std::string> argv;  // never empty

  // Splits `text` (split_command); an error for an unterminated quote or an empty command.
  static Result<BotCommand> parse(const std::string& text);
  // The bot's default name: "random_bot" for "build/sample_bots/random_bot", "bot.py" for
  // "python3.11 -u bot.py" (an interpreter's first argument that is not an option).
  std::string display_name() const;
  // The script file a known interpreter is given ("bot.py" for "python3 -u bot.py"); null when
  // the program is not such an interpreter or is given code instead (-c, -m, -e, java's class).
  const std::string* script() const;
};

// The existing files and folders `command` names, relative to `base` (its program when given
// as a path, and its arguments that are not options): what another seat must not see.
std::vector<std::filesystem::path> files_named_by(const BotCommand& command, const std::filesystem::path& base);

// Whether `command` can start, checked before any match so that a typo is the organiser's usage
// error, not a bot's crash: the program exists, is a file and is executable (a name without '/'
// is looked up in the PATH of `env`, "KEY=VALUE" entries as the bot gets them; a relative path
// from `working_dir`); a script's "#!" interpreter too (through /usr/bin/env: the program it
// names); and for a known interpreter (python3, node, ruby, perl, bash, ...) the script it is
// given. The error is one sentence naming the file, e.g. `"bots/x.py": no such file (from
// /home/me/arena)`.
Status preflight(const BotCommand& command, const std::filesystem::path& working_dir,
                 const std::vector<std::string>& env);

}  // namespace arena::match
