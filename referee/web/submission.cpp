// A submission becoming a version (submission.hpp).
#include "referee/web/submission.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "referee/games/game.hpp"

namespace arena::web {

using nlohmann::json;

Status check_name(const std::string& name, std::string_view what) {
  if (name.empty() || name.size() > 64) return fail(fmt::format("{} \"{}\": 1 to 64 characters", what, name));
  for (char c : name) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
    if (!ok) {
      return fail(fmt::format("{} \"{}\": only letters, digits, '_', '-' and '.' (\"{}\" is not one)", what, name,
                              std::string(1, c)));
    }
  }
  if (name[0] == '.' || name[0] == '-') return fail(fmt::format("{} \"{}\" may not start with '.' or '-'", what, name));
  return {};
}

Result<PreparedVersion, SubmitError> prepare_submission(const ladder::LadderConfig& config, const std::string& bot,
                                                        const std::string& author, ladder::Submission submission,
                                                        std::int64_t now_ms) {
  if (auto st = check_name(bot, "the bot's name"); !st) return fail(SubmitError{SubmitProblem::bad_name, st.error()});
  if (json& seat = submission.manifest.seat_config; !seat.is_null()) {
    if (!config.seat_configs) {
      return fail(SubmitError{SubmitProblem::refused,
                              "bot.json has a \"seat_config\", and this ladder takes none (ladder.json "
                              "\"seat_configs\": false)"});
    }
    auto normalized = games::find_game(config.game)->normalize_seat_config(seat);
    if (!normalized)
      return fail(SubmitError{SubmitProblem::refused, fmt::format("bot.json \"seat_config\": {}", normalized.error())});
    seat = std::move(*normalized);
  }
  PreparedVersion prepared;
  prepared.version.bot = bot;
  prepared.version.author = author;
  prepared.version.manifest = ladder::to_json(submission.manifest);
  prepared.version.source = ladder::pack(submission.files);
  prepared.version.now_ms = now_ms;
  prepared.files = submission.files.entries.size();
  prepared.bytes = submission.files.bytes();
  return prepared;
}

Result<Submitted, SubmitError> add_prepared(ladder::Store& store, PreparedVersion prepared) {
  const ladder::NewVersion& nv = prepared.version;
  auto versions = store.versions();
  if (!versions) return fail(SubmitError{SubmitProblem::database, versions.error()});
  for (const ladder::VersionRow& v : *versions) {
    if (v.bot == nv.bot && v.author != nv.author) {
      return fail(SubmitError{SubmitProblem::not_yours,
                              fmt::format("the bot \"{}\" belongs to {}, not to {}", nv.bot, v.author, nv.author)});
    }
  }
  auto added = store.add_version(nv);
  if (!added) return fail(SubmitError{SubmitProblem::database, added.error()});
  return Submitted{std::move(*added), prepared.files, prepared.bytes};
}

Result<Submitted, SubmitError> add_submission(ladder::Store& store, const ladder::LadderConfig& config,
                                              const std::string& bot, const std::string& author,
                                              ladder::Submission submission, std::int64_t now_ms) {
  auto prepared = prepare_submission(config, bot, author, std::move(submission), now_ms);
  if (!prepared) return fail(prepared.error());
  return add_prepared(store, std::move(*prepared));
}

ladder::ArchiveResult<ladder::Submission> single_file_submission(const std::string& filename, std::string data,
                                                                 ladder::Language language,
                                                                 const ladder::ArchiveLimits& limits) {
  using ladder::ArchiveProblem;
  const auto refuse = [&](ArchiveProblem p, std::string message) {
    return fail(ladder::ArchiveError{p, filename, std::move(message)});
  };
  const bool control = std::any_of(filename.begin(), filename.end(),
                                   [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
  if (filename.empty() || filename.size() > 255 || control || filename.find('/') != std::string::npos ||
      filename == "." || filename == "..") {
    return refuse(ArchiveProblem::bad_name,
                  "the file's name must be one name of 1 to 255 bytes, without '/' or a control character");
  }
  if (filename == ladder::kManifestName)
    return refuse(ArchiveProblem::bad_manifest, "a single file is a source file, not bot.json (send an archive)");
  if (data.size() > limits.max_file_bytes || data.size() > limits.max_total_bytes) {
    return refuse(ArchiveProblem::file_too_large,
                  fmt::format("{} holds {} bytes, over the limit of {}", filename, data.size(), limits.max_file_bytes));
  }
  ladder::FileSet files;
  files.entries.push_back(ladder::FileEntry{std::string(ladder::kManifestName), false, 0644,
                                            json{{"language", enum_name(language)}, {"main", filename}}.dump()});
  files.entries.push_back(ladder::FileEntry{filename, false, 0644, std::move(data)});
  std::sort(files.entries.begin(), files.entries.end(),
            [](const ladder::FileEntry& a, const ladder::FileEntry& b) { return a.path < b.path; });
  return ladder::submission_from(std::move(files));
}

}  // namespace arena::web
