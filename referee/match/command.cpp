#include "referee/match/command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <string_view>

namespace arena::match {

namespace fs = std::filesystem;

namespace {

// The programs that run the bot named by their first argument that is not an option: the
// bot's name is that argument's. For most it is a script file (preflight checks it exists).
struct Interpreter {
  std::string_view name;
  bool script_file;  // false: a class (java) or a program (env), not a file to check
};
constexpr std::array<Interpreter, 16> kInterpreters = {{{"python", true},
                                                        {"python3", true},
                                                        {"pypy3", true},
                                                        {"node", true},
                                                        {"nodejs", true},
                                                        {"ruby", true},
                                                        {"perl", true},
                                                        {"sh", true},
                                                        {"bash", true},
                                                        {"dash", true},
                                                        {"lua", true},
                                                        {"php", true},
                                                        {"Rscript", true},
                                                        {"julia", true},
                                                        {"java", false},
                                                        {"env", false}}};

// The interpreter `program` is (a path or a name; python3.11, lua5.4: the version suffix does
// not matter), or null.
const Interpreter* interpreter_of(const std::string& program) {
  const std::string base = fs::path(program).filename().string();
  std::string stem = base;
  if (const auto dot = base.find_first_of(".0123456789"); dot != std::string::npos && dot > 0) stem.resize(dot);
  for (const Interpreter& i : kInterpreters) {
    if (i.name == base || i.name == stem) return &i;
  }
  return nullptr;
}

// The first argument that is not an option, from argv[1]: what an interpreter runs.
std::size_t first_operand(const std::vector<std::string>& argv) {
  for (std::size_t k = 1; k < argv.size(); ++k) {
    if (!argv[k].empty() && argv[k][0] != '-') return k;
  }
  return 0;
}

std::string path_of(const std::vector<std::string>& env) {
  for (const std::string& kv : env) {
    if (kv.rfind("PATH=", 0) == 0) return kv.substr(5);
  }
  return "/usr/local/bin:/usr/bin:/bin";
}

// "no such file", saying where a relative path was looked for.
std::string no_such_file(const std::string& shown, const fs::path& working_dir) {
  return fs::path(shown).is_relative() ? fmt::format("\"{}\": no such file (from {})", shown, working_dir.string())
                                       : fmt::format("\"{}\": no such file", shown);
}

// A file that exec can run: exists, not a folder, executable.
Status executable_file(const fs::path& file, const std::string& shown, const fs::path& working_dir) {
  std::error_code ec;
  const auto status = fs::status(file, ec);
  if (!fs::exists(status)) return fail(no_such_file(shown, working_dir));
  if (fs::is_directory(status)) return fail(fmt::format("\"{}\" is a folder, not a program", shown));
  if (::access(file.c_str(), X_OK) != 0) return fail(fmt::format("\"{}\" is not executable (chmod +x?)", shown));
  return {};
}

// `program` as exec would find it: a path (relative to working_dir), or a name in PATH.
Result<fs::path> resolve(const std::string& program, const fs::path& working_dir, const std::vector<std::string>& env) {
  if (program.find('/') != std::string::npos) {
    const fs::path file = fs::path(program).is_absolute() ? fs::path(program) : working_dir / program;
    if (auto st = executable_file(file, program, working_dir); !st) return fail(st.error());
    return file;
  }
  const std::string path = path_of(env);
  std::size_t from = 0;
  while (from <= path.size()) {
    const std::size_t to = std::min(path.find(':', from), path.size());
    const std::string dir = path.substr(from, to - from);
    const fs::path candidate = (dir.empty() ? working_dir : fs::path(dir)) / program;
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) return candidate;
    from = to + 1;
  }
  return fail(fmt::format("\"{}\" is not found in PATH ({})", program, path));
}

// The "#!" line of `file`, split in words; empty when there is none.
std::vector<std::string> shebang(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string line;
  if (!in || in.get() != '#' || in.get() != '!') return {};
  std::getline(in, line);
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
    if (j > i) words.push_back(line.substr(i, j - i));
    i = j;
  }
  return words;
}

}  // namespace

std::string shell_quote(const std::string& word) {
  const bool safe = !word.empty() && word.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789_./=:,+-@%") == std::string::npos;
  if (safe) return word;
  std::string q = "'";
  for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

Result<BotCommand> BotCommand::parse(const std::string& text) {
  auto argv = split_command(text);
  if (!argv) return fail(argv.error());
  return BotCommand{text, std::move(argv).value()};
}

std::string BotCommand::display_name() const {
  if (argv.empty()) return "bot";
  const std::size_t named = interpreter_of(argv[0]) != nullptr ? first_operand(argv) : 0;
  return fs::path(argv[named]).filename().string();
}

const std::string* BotCommand::script() const {
  const Interpreter* interpreter = argv.empty() ? nullptr : interpreter_of(argv[0]);
  if (interpreter == nullptr || !interpreter->script_file) return nullptr;
  for (std::size_t k = 1; k < argv.size(); ++k) {
    const std::string& a = argv[k];
    if (a == "-c" || a == "-m" || a == "-e" || a == "-p" || a == "--eval" || a == "--print" || a == "-") return nullptr;
    if (!a.empty() && a[0] != '-') return &a;
  }
  return nullptr;
}

Result<std::vector<std::string>> split_command(const std::string& command) {
  std::vector<std::string> argv;
  std::string current;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < command.size()) {
        current += command[++i];
      } else {
        current += c;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < command.size()) {
      current += command[++i];
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) argv.push_back(std::move(current));
      current.clear();
      in_word = false;
    } else {
      current += c;
      in_word = true;
    }
  }
  if (quote != 0) return fail(fmt::format("unterminated {} quote in the command \"{}\"", quote, command));
  if (in_word) argv.push_back(std::move(current));
  if (argv.empty()) return fail(std::string("an empty bot command"));
  return argv;
}

std::vector<fs::path> files_named_by(const BotCommand& command, const fs::path& base) {
  std::vector<fs::path> out;
  const auto& argv = command.argv;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    if (argv[i].empty() || argv[i][0] == '-' || (i == 0 && argv[i].find('/') == std::string::npos)) continue;
    std::error_code ec;
    const fs::path p = (base / argv[i]).lexically_normal();
    if (fs::exists(p, ec)) out.push_back(p);
  }
  return out;
}

Status preflight(const BotCommand& command, const fs::path& working_dir, const std::vector<std::string>& env) {
  if (command.argv.empty()) return fail(std::string("an empty bot command"));
  const std::vector<std::string>* argv = &command.argv;
  auto program = resolve(argv->front(), working_dir, env);
  if (!program) return fail(program.error());
  // A script started directly: its interpreter must exist too (exec would fail with ENOENT,
  // which reads like a missing script).
  if (const auto line = shebang(*program); !line.empty()) {
    if (auto interpreter = resolve(line[0], working_dir, env); !interpreter) {
      return fail(fmt::format("\"{}\" starts with \"#!{}\": {}", argv->front(), line[0], interpreter.error()));
    }
    if (fs::path(line[0]).filename() == "env") {
      const auto named = std::find_if(line.begin() + 1, line.end(), [](const std::string& w) { return w[0] != '-'; });
      if (named != line.end()) {
        if (auto found = resolve(*named, working_dir, env); !found)
          return fail(fmt::format("\"{}\" runs \"{}\" (its #! line): {}", argv->front(), *named, found.error()));
      }
    }
  }
  if (const std::string* script = command.script()) {
    const fs::path file = fs::path(*script).is_absolute() ? fs::path(*script) : working_dir / *script;
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) {
      return fail(fs::exists(file, ec) ? fmt::format("\"{}\" is not a file", *script)
                                       : no_such_file(*script, working_dir));
    }
  }
  return {};
}

}  // namespace arena::match
