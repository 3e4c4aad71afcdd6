#pragma once
// A submission becoming a bot's next version (docs/ladder.md): the one code path of
// `referee ladder submit` on the organiser's machine and of POST /api/v1/submit. The files are
// read and checked by ladder/archive (a folder, an archive, or here one source file with its
// language); this adds the ladder's checks (the bot's name, a seat configuration the ladder
// takes and the game accepts, the name's owner) and the version, which the coordinator builds.

#include <cstdint>
#include <string>
#include <string_view>

#include "referee/core/result.hpp"
#include "referee/ladder/archive.hpp"
#include "referee/ladder/config.hpp"
#include "referee/ladder/store.hpp"

namespace arena::web {

// A bot's or an account's name: what authors, standings and file names can all carry (1 to 64
// letters, digits, '_', '-', '.'; not first '.' or '-'); the error starts with `what`.
Status check_name(const std::string& name, std::string_view what);

enum class SubmitProblem {
  bad_name,   // the bot's name is not one (check_name)
  refused,    // the seat configuration is refused (the files were checked before)
  not_yours,  // the bot's name belongs to another author
  database    // the store failed
};

struct SubmitError {
  SubmitProblem problem = SubmitProblem::refused;
  std::string message;  // one sentence naming the problem; bot- and author-written text raw
};

struct Submitted {
  ladder::VersionRow version;
  std::size_t files = 0;    // entries in the submission
  std::uint64_t bytes = 0;  // its files' bytes together
};

// A submission checked and packed for the store: the work of a large upload, done without the
// store (the web server does it outside the lock its requests share).
struct PreparedVersion {
  ladder::NewVersion version;
  std::size_t files = 0;
  std::uint64_t bytes = 0;
};

// Checks `submission` as the next version of `bot` by `author` (its name, its seat configuration)
// and packs its files.
Result<PreparedVersion, SubmitError> prepare_submission(const ladder::LadderConfig& config, const std::string& bot,
                                                        const std::string& author, ladder::Submission submission,
                                                        std::int64_t now_ms);
// Adds a prepared version, unless its bot belongs to another author.
Result<Submitted, SubmitError> add_prepared(ladder::Store& store, PreparedVersion prepared);
// Both: adds `submission` as the next version of `bot` by `author`.
Result<Submitted, SubmitError> add_submission(ladder::Store& store, const ladder::LadderConfig& config,
                                              const std::string& bot, const std::string& author,
                                              ladder::Submission submission, std::int64_t now_ms);

// One source file as a submission: the file and a bot.json {"language", "main": the file}. The
// file's name is one name (no '/', no control character, not bot.json, at most 255 bytes).
ladder::ArchiveResult<ladder::Submission> single_file_submission(const std::string& filename, std::string data,
                                                                 ladder::Language language,
                                                                 const ladder::ArchiveLimits& limits);

}  // namespace arena::web
