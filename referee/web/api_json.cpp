// The API's responses and shared JSON (api_json.hpp).
#include "referee/web/api_json.hpp"

#include <fmt/format.h>

#include "referee/core/enum_names.hpp"
#include "referee/ladder/roster.hpp"

namespace arena::web {

using nlohmann::json;

// Text from bots and authors may be any bytes: invalid UTF-8 is replaced, never an exception.
std::string dump_json(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

Response json_ok(const json& j) {
  Response r;
  r.body = dump_json(j);
  return r;
}

Response error_response(int status, const std::string& message) {
  Response r;
  r.status = status;
  r.body = dump_json(json{{"error", message}});
  return r;
}

Response database_error(const std::string& message) {
  return error_response(500, "the ladder's database: " + message);
}

Response wrong_method(const Request& request, const char* allowed) {
  Response r = error_response(405, fmt::format("{} takes {}, not {}", request.path, allowed, request.method));
  r.headers.emplace_back("Allow", allowed);
  return r;
}

// 401: no account, or a token that is not one.
Response unauthorized(const std::string& why) {
  Response r = error_response(401, why);
  r.headers.emplace_back("WWW-Authenticate", "Bearer");
  return r;
}

Response needs_token() {
  return unauthorized("this needs an account's token: Authorization: Bearer TOKEN");
}

json version_json(const ladder::VersionRow& v, bool logs_public, bool logs, bool with_log) {
  json j{{"id", v.id},
         {"bot", v.bot},
         {"number", v.number},
         {"label", ladder::version_label(v)},
         {"author", v.author},
         {"state", enum_name(v.state)},
         {"submitted_ms", v.submitted_ms},
         {"decided_ms", v.decided_ms},
         {"language", v.manifest.value("language", json())},
         {"logs_public", logs_public}};
  if (logs) {
    j["fault"] = v.fault;
    if (with_log) j["build_log"] = v.build_log;
  }
  return j;
}

}  // namespace arena::web
