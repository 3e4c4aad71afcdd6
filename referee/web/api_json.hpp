#pragma once
// What the API's files share (api.cpp, api_submit.cpp): its responses (JSON, and errors as
// {"error": ...} with the status that names them) and a version as JSON.

#include <nlohmann/json.hpp>
#include <string>

#include "referee/ladder/store.hpp"
#include "referee/web/http_server.hpp"

namespace arena::web {

// Text from bots and authors may be any bytes: invalid UTF-8 is replaced, never an exception.
std::string dump_json(const nlohmann::json& j);
Response json_ok(const nlohmann::json& j);
Response error_response(int status, const std::string& message);
Response database_error(const std::string& message);
// 405, and the Allow header.
Response wrong_method(const Request& request, const char* allowed);
// 401: no account, or a token that is not one (and WWW-Authenticate: Bearer).
Response unauthorized(const std::string& why);
Response needs_token();

// A version; its rejection reason and (with `with_log`) its build log when `logs` (ladder.json's
// logs_public, or the caller is its author or the organiser).
nlohmann::json version_json(const ladder::VersionRow& v, bool logs_public, bool logs, bool with_log);

}  // namespace arena::web
