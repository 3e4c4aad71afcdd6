#include "referee/cli/common.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "referee/core/clock.hpp"
#include "referee/league/league_file.hpp"
#include "referee/match/command.hpp"
#include "referee/match/rerun.hpp"

namespace arena::cli {

using nlohmann::json;

StopSignal& stop_signal() {
  static StopSignal stop;
  return stop;
}

std::string timestamp() {
  return utc_now("%Y%m%d-%H%M%S");
}

Result<json> read_json_arg(const std::string& text, std::string_view option) {
  if (text.empty() || text == "-") return json(nullptr);
  std::string body = text;
  std::error_code ec;
  // @FILE, or the path of a file that exists; else the text itself is the JSON.
  const std::string path = text[0] == '@'                               ? text.substr(1)
                           : std::filesystem::is_regular_file(text, ec) ? text
                                                                        : std::string();
  if (!path.empty()) {
    std::ifstream in(path);
    if (!in) return fail(fmt::format("{}: cannot read the file {}: {}", option, path, std::strerror(errno)));
    std::stringstream ss;
    ss << in.rdbuf();
    body = ss.str();
  }
  if (!path.empty()) return league::parse_json_text(body, fmt::format("{}: the file {}", option, path));
  try {
    return json::parse(body);
  } catch (const json::parse_error& e) {
    const std::string shown = text.size() > 80 ? text.substr(0, 80) + "..." : text;
    // Not JSON and not an existing file: a mistyped path is the likelier mistake.
    const char first = text[0];
    if (first != '{' && first != '[' && first != '"') {
      return fail(fmt::format("{}: no such file, and not JSON either: {}", option, shown));
    }
    return fail(fmt::format("{} is not valid JSON (parse error at byte {}): {}", option, e.byte, shown));
  }
}

Result<json> read_config(const std::string& text) {
  return read_json_arg(text, "--config");
}

Result<std::vector<match::BotCommand>> parse_bot_commands(const std::vector<std::string>& texts,
                                                          std::string_view flag) {
  std::vector<match::BotCommand> commands;
  for (const std::string& text : texts) {
    auto command = match::BotCommand::parse(text);
    if (!command) return fail(fmt::format("{}: {}", flag, command.error()));
    commands.push_back(std::move(command).value());
  }
  return commands;
}

std::vector<std::string> bot_environment(const std::filesystem::path& working_dir,
                                         const std::vector<std::string>& extra) {
  const char* path = std::getenv("PATH");
  std::vector<std::string> env = {
      fmt::format("PATH={}", path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin"),
      "LANG=C.UTF-8",
      fmt::format("HOME={}", working_dir.string()),
      // Deliberate: a Python bot that forgets flush=True still works; documented in protocol.md.
      "PYTHONUNBUFFERED=1",
      "PYTHONDONTWRITEBYTECODE=1",
  };
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

namespace {

template <typename T>
CLI::Validator within_range(const bounds::Range<T>& range) {
  return CLI::Validator(
      [range](std::string& input) -> std::string {
        std::string_view text = input;
        if (text.size() > 1 && text[0] == '+') text.remove_prefix(1);
        T value{};
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error == std::errc() && end == text.data() + text.size() && range.contains(value)) return {};
        return bounds::out_of_range("", input, range);
      },
      fmt::format("{} in {}", std::is_floating_point_v<T> ? "NUMBER" : "INT", bounds::text(range)));
}

}  // namespace

CLI::Validator within(const bounds::Range<std::int64_t>& range) {
  return within_range(range);
}
CLI::Validator within(const bounds::Range<std::uint64_t>& range) {
  return within_range(range);
}
CLI::Validator within(const bounds::Range<double>& range) {
  return within_range(range);
}

void add_share_output(CLI::App* c, bool& share) {
  c->add_flag(
      "--share-output", share,
      "Make the files written readable by others (0644, folders 0755) once their match is over; default owner-only");
}

void add_match_options(CLI::App* c, MatchArgs& a) {
  c->add_option("--init-ms", a.limits.init_ms, "Time from start to the ready message")
      ->capture_default_str()
      ->check(within(bounds::kInitMs));
  c->add_option("--decision-ms", a.limits.decision_ms, "Time per decision")
      ->capture_default_str()
      ->check(within(bounds::kDecisionMs));
  c->add_option("--time-bank-ms", a.limits.time_bank_ms, "Extra time per seat for the whole match")
      ->capture_default_str()
      ->check(within(bounds::kTimeBankMs));
  c->add_option("--time-scale", a.time_scale, "Multiply every time limit (slow machines)")
      ->capture_default_str()
      ->check(within(bounds::kTimeScale));
  c->add_option("--max-line-bytes", a.limits.max_line_bytes, "Longest reply line a bot may send")
      ->capture_default_str()
      ->check(within(bounds::kMaxLineBytes));
  c->add_option("--grace-ms", a.grace_ms, "After game over, time for a bot to exit before it is killed")
      ->capture_default_str()
      ->check(within(bounds::kGraceMs));
  c->add_option("--env", a.env, "Extra KEY=VALUE for the bots' environment (repeatable)")
      ->check(CLI::Validator(
          [](std::string& kv) -> std::string {
            if (kv.find('=') == std::string::npos || kv.front() == '=')
              return fmt::format("expects KEY=VALUE, got \"{}\"", kv);
            return {};
          },
          "KEY=VALUE"));
  add_sandbox_options(c, a.sandbox);
  add_share_output(c, a.share_output);
}

Status apply_match_options(const MatchArgs& a, match::Options& o) {
  auto sandbox = sandbox_policy(a.sandbox, o.bots.size());
  if (!sandbox) return fail(sandbox.error());
  o.sandbox = *sandbox;
  for (std::size_t i = 0; i < o.bots.size(); ++i) {
    if (auto mb = address_space_for(a.sandbox, i)) o.bots[i].address_space_mb = mb;
  }
  o.limits = a.limits;
  o.time_scale = a.time_scale;
  o.grace = std::chrono::milliseconds(a.grace_ms);
  return {};
}

std::function<std::string(const match::Options&)> rerun_command(const MatchArgs& a,
                                                                const std::filesystem::path& referee,
                                                                const std::filesystem::path& working_dir) {
  return [context = match::RerunContext{referee.string(), working_dir, a.env}](const match::Options& o) {
    return match::play_command(o, context);
  };
}

std::filesystem::path referee_path() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path("referee") : p;
}

void add_sandbox_options(CLI::App* c, SandboxArgs& a) {
  const bots::SandboxLimits d;
  c->add_option("--sandbox", a.tier, "none, basic or strict (default: the strictest this machine supports)")
      ->check(CLI::IsMember({"none", "basic", "strict"}));
  c->add_option("--cpu-limit-s", a.limits.cpu_seconds,
                fmt::format("CPU seconds per bot process, a backstop (default {})", d.cpu_seconds))
      ->check(within(bounds::kCpuSeconds));
  c->add_option("--address-space-mb", a.address_space_mb,
                fmt::format("Address space per bot process in MiB, 0 = unlimited; once, or once per bot (default {})",
                            d.address_space_mb))
      ->check(within(bounds::kAddressSpaceMb));
  c->add_option(
       "--memory-mb", a.limits.memory_mb,
       fmt::format("Memory of a bot's whole tree in MiB, with a cgroup memory controller (default {})", d.memory_mb))
      ->check(within(bounds::kMemoryMb));
  c->add_option("--file-size-mb", a.limits.file_size_mb,
                fmt::format("Largest file a bot may write, MiB (default {})", d.file_size_mb))
      ->check(within(bounds::kFileSizeMb));
  c->add_option(
       "--scratch-mb", a.limits.scratch_mb,
       fmt::format("Strict tier: MiB of private /tmp, /var/tmp, /dev/shm and home together (default {})", d.scratch_mb))
      ->check(within(bounds::kScratchMb));
  c->add_option("--open-files", a.limits.open_files,
                fmt::format("Open descriptors per bot process (default {})", d.open_files))
      ->check(within(bounds::kOpenFiles));
  c->add_option("--processes", a.limits.processes,
                fmt::format("Processes and threads per bot (default {})", d.processes))
      ->check(within(bounds::kProcesses));
  c->add_flag("--allow-network", a.limits.network, "Let bots open network sockets");
  c->add_flag("--freeze-idle,!--no-freeze-idle", a.freeze_idle,
              "Stop each bot while it is not its turn, so it cannot use the others' time (default on; "
              "--no-freeze-idle lets it run, its idle CPU only recorded)");
}

Result<bots::SandboxPolicy> sandbox_policy(const SandboxArgs& a, std::size_t bot_count) {
  if (a.address_space_mb.size() > 1 && a.address_space_mb.size() != bot_count) {
    return fail(fmt::format("--address-space-mb given {} times for {} bots; give it once or once per bot",
                            a.address_space_mb.size(), bot_count));
  }
  bots::SandboxLimits limits = a.limits;
  if (a.address_space_mb.size() == 1) limits.address_space_mb = a.address_space_mb.front();
  std::optional<bots::Tier> tier;
  if (!a.tier.empty()) tier = parse_enum<bots::Tier>(a.tier);
  return bots::resolve_policy(tier, limits, a.freeze_idle);
}

std::optional<std::uint64_t> address_space_for(const SandboxArgs& a, std::size_t i) {
  if (a.address_space_mb.size() > 1 && i < a.address_space_mb.size()) return a.address_space_mb[i];
  return std::nullopt;
}

}  // namespace arena::cli

namespace arena::cli {

Result<std::vector<std::filesystem::path>> sample_bots() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return fail(fmt::format("cannot find the referee's own path ({}); give --opponent CMD", ec.message()));
  const std::vector<fs::path> dirs = {exe.parent_path().parent_path().parent_path() / "sample_bots",
                                      (exe.parent_path() / ARENA_INSTALLED_BOTS).lexically_normal()};
  for (const fs::path& dir : dirs) {
    std::vector<fs::path> found;
    for (const char* name : {"random_bot", "greedy_bot"}) {
      const fs::path bot = dir / name;
      if (fs::is_regular_file(bot, ec)) found.push_back(bot);
    }
    if (!found.empty()) return found;
  }
  return fail(
      fmt::format("no sample bots in {} or {} (build them: cmake --build <build> --target random_bot greedy_bot), or "
                  "give --opponent CMD",
                  dirs[0].string(), dirs[1].string()));
}

Result<std::vector<std::string>> sample_bot_commands() {
  auto bots = sample_bots();
  if (!bots) return fail(bots.error());
  std::vector<std::string> out;
  for (const auto& bot : *bots) out.push_back(match::shell_quote(bot.string()));
  return out;
}

}  // namespace arena::cli
