// POST /api/v1/submit (api.hpp): the form read, the files checked, the version added through the
// one submission path (submission.hpp), each refusal its status.
#include <fmt/format.h>

#include <algorithm>

#include "referee/league/deal.hpp"
#include "referee/web/api.hpp"
#include "referee/web/api_json.hpp"
#include "referee/web/multipart.hpp"
#include "referee/web/submission.hpp"

namespace arena::web {

using nlohmann::json;

namespace {

// A submission's body beyond its file: the form's boundaries, headers and other fields.
constexpr std::size_t kFormRoom = 64 * 1024;
// The rate limit's window.
constexpr std::int64_t kMinuteMs = 60'000;

}  // namespace

std::size_t Api::upload_bytes() const {
  return static_cast<std::size_t>(config_.submission.max_mb << 20) + kFormRoom;
}

Response Api::submit(const Request& request) {
  Caller caller;
  {
    // The store's turn: who asks, and whether the rate limit counts one more. Every attempt
    // counts, refused or not: a client that keeps sending bad uploads is slowed too.
    std::lock_guard lock(mu_);
    auto who = authenticate(request);
    if (auto* refused = std::get_if<Response>(&who)) return std::move(*refused);
    caller = std::move(std::get<Caller>(who));
    if (!caller) return needs_token();
    const std::int64_t now = league::unix_ms();
    auto slot = store_->take_submission_slot(caller->name, now, kMinuteMs, kSubmissionsPerMinute);
    if (!slot) return database_error(slot.error());
    if (!slot->granted) {
      const std::int64_t wait = std::max<std::int64_t>(1, (slot->retry_at_ms - now + 999) / 1000);
      Response r = error_response(
          429, fmt::format("{} submissions a minute at most: try again in {} s", kSubmissionsPerMinute, wait));
      r.headers.emplace_back("Retry-After", std::to_string(wait));
      return r;
    }
  }
  // Outside the store's turn: the form, the files and their packing (a large upload's work).
  const auto type = request.headers.find("content-type");
  if (type == request.headers.end())
    return error_response(400, "the submission must be a multipart/form-data body (no Content-Type)");
  auto form = parse_form_data(type->second, request.body);
  if (!form) return error_response(400, fmt::format("the form: {}", form.error()));
  for (const auto& [name, part] : *form) {
    if (name != "name" && name != "file" && name != "language")
      return error_response(400, fmt::format("the form has a field \"{}\": only name, file and language", name));
  }
  const auto name = form->find("name");
  const auto file = form->find("file");
  if (name == form->end()) return error_response(400, "the form has no field \"name\" (the bot's name)");
  if (file == form->end() || !file->second.filename)
    return error_response(400, "the form has no file \"file\" (an archive, or one source file with \"language\")");
  const ladder::ArchiveLimits limits = ladder::submission_limits(config_);
  std::optional<ladder::Language> language;
  if (const auto field = form->find("language"); field != form->end() && !field->second.data.empty()) {
    language = parse_enum<ladder::Language>(field->second.data);
    if (!language) {
      return error_response(
          400, fmt::format("language \"{}\": one of {}", field->second.data, enum_names_text<ladder::Language>()));
    }
  }
  // One source file with its language, else an archive (told by its content).
  auto read = [&]() -> ladder::ArchiveResult<ladder::Submission> {
    if (language)
      return single_file_submission(*file->second.filename, std::move(file->second.data), *language, limits);
    const std::string& data = file->second.data;
    auto files = ladder::read_archive(ladder::Bytes(data.begin(), data.end()), limits);
    if (!files) return fail(files.error());
    return ladder::submission_from(std::move(*files));
  }();
  if (!read) {
    const ladder::ArchiveError& e = read.error();
    const bool size =
        e.problem == ladder::ArchiveProblem::too_large || e.problem == ladder::ArchiveProblem::file_too_large;
    Response r;
    r.status = size ? 413 : 400;
    r.body = dump_json(json{{"error", fmt::format("the submission is refused: {}", e.message)},
                            {"problem", enum_name(e.problem)},
                            {"entry", e.entry}});
    return r;
  }
  auto prepared = prepare_submission(config_, name->second.data, caller->name, std::move(*read), league::unix_ms());
  // The store's turn again, for the owner's check and the insert only.
  auto added = [&]() -> Result<Submitted, SubmitError> {
    if (!prepared) return fail(prepared.error());
    std::lock_guard lock(mu_);
    return add_prepared(*store_, std::move(*prepared));
  }();
  if (!added) {
    const SubmitError& e = added.error();
    switch (e.problem) {
      case SubmitProblem::bad_name:
      case SubmitProblem::refused:
        return error_response(400, fmt::format("the submission is refused: {}", e.message));
      case SubmitProblem::not_yours:
        return error_response(403, e.message);
      case SubmitProblem::database:
        return database_error(e.message);
    }
  }
  Response r = json_ok(json{{"version", version_json(added->version, config_.logs_public, true, false)},
                            {"files", added->files},
                            {"bytes", added->bytes}});
  r.status = 202;
  return r;
}

}  // namespace arena::web
