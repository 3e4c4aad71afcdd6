#include "referee/match/rerun.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace arena::match {

namespace {

// The sandbox flags of `policy` that differ from a plain `--sandbox TIER`.
std::string sandbox_flags(const Options& o) {
  const bots::SandboxLimits d;
  const bots::SandboxLimits& l = o.sandbox.limits;
  std::string flags = fmt::format(" --sandbox {}", enum_name(o.sandbox.tier));
  if (l.cpu_seconds != d.cpu_seconds) flags += fmt::format(" --cpu-limit-s {}", l.cpu_seconds);
  if (l.memory_mb != d.memory_mb) flags += fmt::format(" --memory-mb {}", l.memory_mb);
  if (l.file_size_mb != d.file_size_mb) flags += fmt::format(" --file-size-mb {}", l.file_size_mb);
  if (l.scratch_mb != d.scratch_mb) flags += fmt::format(" --scratch-mb {}", l.scratch_mb);
  if (l.open_files != d.open_files) flags += fmt::format(" --open-files {}", l.open_files);
  if (l.processes != d.processes) flags += fmt::format(" --processes {}", l.processes);
  if (l.network) flags += " --allow-network";
  if (!o.sandbox.freeze_idle) flags += " --no-freeze-idle";
  // Once for every bot, or once per bot when one of them has its own.
  if (std::any_of(o.bots.begin(), o.bots.end(), [](const BotSpec& b) { return b.address_space_mb.has_value(); })) {
    for (const BotSpec& b : o.bots)
      flags += fmt::format(" --address-space-mb {}", b.address_space_mb.value_or(l.address_space_mb));
  } else if (l.address_space_mb != d.address_space_mb) {
    flags += fmt::format(" --address-space-mb {}", l.address_space_mb);
  }
  return flags;
}

}  // namespace

std::string play_command(const Options& o, const RerunContext& c) {
  std::string cmd =
      c.working_dir.empty() ? std::string() : fmt::format("cd {} && ", shell_quote(c.working_dir.string()));
  cmd += fmt::format("{} play --game {} --seed {}", shell_quote(c.referee), shell_quote(o.game), o.seed);
  if (!o.config.is_null() && !o.config.empty()) cmd += " --config " + shell_quote(o.config.dump());
  const bool seat_configs =
      std::any_of(o.bots.begin(), o.bots.end(), [](const BotSpec& b) { return !b.seat_config.is_null(); });
  for (const BotSpec& b : o.bots) {
    cmd += " --bot " + shell_quote(b.command.text);
    if (!b.name.empty()) cmd += " --name " + shell_quote(b.name);
    if (seat_configs)
      cmd += " --seat-config " + (b.seat_config.is_null() ? std::string("-") : shell_quote(b.seat_config.dump()));
  }
  const protocol::Limits d;
  cmd += fmt::format(" --init-ms {} --decision-ms {}", o.limits.init_ms, o.limits.decision_ms);
  if (o.limits.time_bank_ms != d.time_bank_ms) cmd += fmt::format(" --time-bank-ms {}", o.limits.time_bank_ms);
  if (o.time_scale != 1.0) cmd += fmt::format(" --time-scale {}", o.time_scale);
  if (o.limits.max_line_bytes != d.max_line_bytes) cmd += fmt::format(" --max-line-bytes {}", o.limits.max_line_bytes);
  if (o.grace != kDefaultGrace) cmd += fmt::format(" --grace-ms {}", o.grace.count());
  for (const std::string& e : c.env) cmd += " --env " + shell_quote(e);
  return cmd + sandbox_flags(o);
}

}  // namespace arena::match
