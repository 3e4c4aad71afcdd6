// POST /api/v1/submit (api.hpp): the form read, the files checked, the version added through the
// one submission path (submission.hpp), each refusal its status.
#include <fmt/format.h>

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

}  // namespace

std::size_t Api::upload_bytes() const {
  return static_cast<std::size_t>(config_.submission.max_mb << 20) + kFormRoom;
}

Response Api::submit(const Request& request, const Caller& caller) {
  if (!caller) return needs_token();
  // Every attempt counts, refused or not: a client that keeps sending bad uploads is slowed too.
  const auto now = std::chrono::steady_clock::now();
  auto& recent = submitted_[caller->name];
  while (!recent.empty() && now - recent.front() >= std::chrono::minutes(1)) recent.pop_front();
  if (recent.size() >= kSubmissionsPerMinute) {
    const auto wait = std::chrono::ceil<std::chrono::seconds>(recent.front() + std::chrono::minutes(1) - now);
    Response r = error_response(
        429, fmt::format("{} submissions a minute at most: try again in {} s", kSubmissionsPerMinute, wait.count()));
    r.headers.emplace_back("Retry-After", std::to_string(wait.count()));
    return r;
  }
  recent.push_back(now);
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
  auto added = add_submission(*store_, config_, name->second.data, caller->name, std::move(*read), league::unix_ms());
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
