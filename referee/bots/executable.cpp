#include "referee/bots/executable.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>

namespace arena::bots {

Result<std::string> resolve_exe(const std::string& name, const std::vector<std::string>& env,
                                const std::filesystem::path& base) {
  namespace fs = std::filesystem;
  auto usable = [](const fs::path& p) { return ::access(p.c_str(), X_OK) == 0 && !fs::is_directory(p); };
  if (name.find('/') != std::string::npos) {
    const fs::path p = fs::path(name).is_absolute() || base.empty() ? fs::absolute(name) : fs::absolute(base) / name;
    if (::access(p.c_str(), F_OK) != 0) return fail(fmt::format("cannot start \"{}\": no such file", name));
    if (!usable(p)) return fail(fmt::format("cannot start \"{}\": not an executable file", name));
    return p.string();
  }
  std::string path = "/usr/local/bin:/usr/bin:/bin";
  for (const std::string& e : env) {
    if (e.rfind("PATH=", 0) == 0) path = e.substr(5);
  }
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t end = std::min(path.find(':', start), path.size());
    const fs::path dir = path.substr(start, end - start);
    if (!dir.empty() && usable(dir / name)) return (dir / name).string();
    start = end + 1;
  }
  return fail(fmt::format("cannot start \"{}\": not found in the bot's PATH ({})", name, path));
}

std::vector<std::string> absolute_file_arguments(const std::vector<std::string>& args,
                                                 const std::filesystem::path& base) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::error_code ec;
  const fs::path dir = base.empty() ? fs::current_path(ec) : fs::absolute(base, ec);
  for (const std::string& a : args) {
    const fs::path p(a);
    if (a.empty() || a[0] == '-' || p.is_absolute()) {
      out.push_back(a);
      continue;
    }
    const fs::path full = dir / p;
    const bool file_like = a.find('/') != std::string::npos ? fs::exists(full, ec) : fs::is_regular_file(full, ec);
    out.push_back(file_like ? full.lexically_normal().string() : a);
  }
  return out;
}

}  // namespace arena::bots
