#include "referee/cli/common.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "referee/core/clock.hpp"

namespace arena::cli {

using nlohmann::json;

std::string timestamp() { return utc_now("%Y%m%d-%H%M%S"); }

Result<json> read_config(const std::string& text) {
  if (text.empty()) return json(nullptr);
  std::string body = text;
  if (text[0] == '@') {
    std::ifstream in(text.substr(1));
    if (!in) return fail(fmt::format("cannot read the config file {}", text.substr(1)));
    std::stringstream ss;
    ss << in.rdbuf();
    body = ss.str();
  }
  json j = json::parse(body, nullptr, false);
  if (j.is_discarded()) return fail(fmt::format("--config is not valid JSON: {}", text.size() > 80 ? text.substr(0, 80) + "..." : text));
  return j;
}

std::vector<std::string> bot_environment(const std::filesystem::path& working_dir, const std::vector<std::string>& extra) {
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

}  // namespace arena::cli
