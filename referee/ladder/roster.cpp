#include "referee/ladder/roster.hpp"

#include <fmt/format.h>

#include "referee/core/private_file.hpp"
#include "referee/ladder/archive.hpp"
#include "referee/ladder/manifest.hpp"
#include "referee/match/command.hpp"

namespace arena::ladder {

namespace fs = std::filesystem;

std::string version_label(const VersionRow& v) {
  return fmt::format("{}@v{}", v.bot, v.number);
}

Result<match::BotCommand> command_in(const std::string& command, const fs::path& folder) {
  auto parsed = match::BotCommand::parse(command);
  if (!parsed) return fail(parsed.error());
  match::BotCommand out;
  for (const std::string& word : parsed->argv) {
    std::string w = word;
    const fs::path rel = fs::path(word).lexically_normal();
    std::error_code ec;
    if (!word.empty() && word[0] != '-' && rel.is_relative() && (rel.empty() || *rel.begin() != "..") &&
        fs::exists(folder / rel, ec)) {
      w = (fs::absolute(folder) / rel).lexically_normal().string();
    }
    if (!out.text.empty()) out.text += ' ';
    out.text += match::shell_quote(w);
    out.argv.push_back(std::move(w));
  }
  return out;
}

std::vector<int> MatchBots::leg_bots(int leg) const {
  std::vector<Id> index(versions.size());
  for (std::size_t i = 0; i < index.size(); ++i) index[i] = static_cast<Id>(i);
  std::vector<int> out;
  for (Id i : leg_seats(index, leg)) out.push_back(static_cast<int>(i));
  return out;
}

Result<MatchBots> Roster::table(Store& store, const MatchRow& m, const fs::path& versions_dir,
                                const LadderConfig& config) {
  MatchBots t;
  for (Id id : m.seats) {
    auto known = known_.find(id);
    if (known == known_.end()) {
      auto row = store.version(id);
      if (!row) return fail(row.error());
      if (!*row) return fail(fmt::format("match {} names version {}, which the ladder does not have", m.id, id));
      const VersionRow& v = **row;
      const fs::path folder = versions_dir / std::to_string(id);
      std::error_code ec;
      if (!fs::is_directory(folder, ec)) {
        auto files = store.version_files(id);
        if (!files) return fail(files.error());
        // Unpacked beside its final place, then renamed: a worker killed half-way leaves no
        // half-unpacked version behind.
        const fs::path partial = versions_dir / (std::to_string(id) + ".partial");
        fs::remove_all(partial, ec);
        // Readable by the bot's own uid in the sandbox (strict shows it only its own folder).
        fs::create_directories(partial, ec);
        fs::permissions(partial, fs::perms(0755), ec);
        if (ec) return fail(fmt::format("cannot create {}: {}", partial.string(), ec.message()));
        if (auto st = unpack(*files, partial, built_limits(config)); !st) {
          fs::remove_all(partial, ec);
          return fail(fmt::format("version {} ({}): {}", id, version_label(v), st.error().message));
        }
        fs::rename(partial, folder, ec);
        if (ec) return fail(fmt::format("cannot move {} into place: {}", partial.string(), ec.message()));
      }
      auto command = command_in(v.command, folder);
      if (!command)
        return fail(fmt::format("version {} ({}): its run command: {}", id, version_label(v), command.error()));
      match::BotSpec bot(std::move(*command), version_label(v));
      if (config.seat_configs) {
        auto manifest = manifest_from_json(v.manifest);
        if (!manifest) return fail(fmt::format("version {} ({}): {}", id, version_label(v), manifest.error()));
        bot.seat_config = manifest->seat_config;
      }
      known = known_.emplace(id, std::move(bot)).first;
    }
    t.versions.push_back(id);
    t.bots.push_back(known->second);
  }
  return t;
}

}  // namespace arena::ladder
