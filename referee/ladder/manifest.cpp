#include "referee/ladder/manifest.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "referee/match/command.hpp"

namespace arena::ladder {

namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 5> kKeys = {"language", "main", "build", "run", "seat_config"};

// A string value of `key`, or an error naming it.
Result<std::string> text_of(const json& j, std::string_view key, bool multi_line) {
  const json& v = j.at(std::string(key));
  if (!v.is_string()) return fail(fmt::format("bot.json: \"{}\" must be a string, not {}", key, v.type_name()));
  std::string s = v.get<std::string>();
  if (s.empty()) return fail(fmt::format("bot.json: \"{}\" is empty", key));
  if (s.size() > kCommandMaxBytes)
    return fail(fmt::format("bot.json: \"{}\" is longer than {} bytes", key, kCommandMaxBytes));
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && !(multi_line && (c == '\n' || c == '\t'))) || c == 0x7f)
      return fail(fmt::format("bot.json: \"{}\" holds a control character (byte {:#04x})", key, c));
  }
  return s;
}

// "main": a file inside the folder, named by a relative path without "." or ".." parts.
Status check_main(const std::string& main) {
  if (main.front() == '/') return fail(fmt::format("bot.json: \"main\" ({}) must be relative to the folder", main));
  if (main.front() == '-') return fail(fmt::format("bot.json: \"main\" ({}) must not start with '-'", main));
  std::size_t start = 0;
  while (start <= main.size()) {
    const std::size_t end = std::min(main.find('/', start), main.size());
    const std::string_view part(main.data() + start, end - start);
    if (part.empty() || part == "." || part == "..")
      return fail(
          fmt::format("bot.json: \"main\" ({}) must name a file inside the folder, without \".\", \"..\" "
                      "or empty parts",
                      main));
    start = end + 1;
  }
  return {};
}

std::string default_build(Language language, const std::string& main, bool main_given) {
  switch (language) {
    case Language::cpp:
      return main_given ? "g++ -std=c++20 -O2 -o bot " + match::shell_quote(main) : "g++ -std=c++20 -O2 -o bot *.cpp";
    case Language::python:
      return "python3 -m py_compile " + match::shell_quote(main);
    case Language::javascript:
      return "node --check " + match::shell_quote(main);
  }
  return "";
}

std::string default_run(Language language, const std::string& main) {
  switch (language) {
    case Language::cpp:
      return "./bot";
    case Language::python:
      return "python3 -u " + match::shell_quote(main);
    case Language::javascript:
      return "node " + match::shell_quote(main);
  }
  return "";
}

}  // namespace

std::string_view default_main(Language language) {
  static constexpr std::array<std::pair<Language, std::string_view>, 3> kMain{
      {{Language::cpp, "bot.cpp"}, {Language::python, "bot.py"}, {Language::javascript, "bot.js"}}};
  return table_lookup(kMain, language, std::string_view());
}

Result<Manifest> manifest_from_json(const json& j) {
  if (!j.is_object()) return fail(fmt::format("bot.json must hold an object, not {}", j.type_name()));
  for (const auto& [key, value] : j.items()) {
    if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end())
      return fail(fmt::format(
          "bot.json: unknown key \"{}\" (known: \"language\", \"main\", \"build\", \"run\", \"seat_config\")", key));
  }
  Manifest m;
  if (j.contains("language")) {
    auto name = text_of(j, "language", false);
    if (!name) return fail(name.error());
    m.language = parse_enum<Language>(*name);
    if (!m.language)
      return fail(fmt::format("bot.json: \"language\" is \"{}\"; it must be {}", *name, enum_names_text<Language>()));
  }
  const bool main_given = j.contains("main");
  if (main_given) {
    if (!m.language) return fail(std::string("bot.json: \"main\" needs a \"language\" (or give \"run\" alone)"));
    auto main = text_of(j, "main", false);
    if (!main) return fail(main.error());
    if (auto st = check_main(*main); !st) return fail(st.error());
    m.main = *main;
  } else if (m.language) {
    m.main = std::string(default_main(*m.language));
  }
  if (j.contains("build")) {
    auto build = text_of(j, "build", true);
    if (!build) return fail(build.error());
    m.build = *build;
  } else if (m.language) {
    m.build = default_build(*m.language, m.main, main_given);
  }
  if (j.contains("run")) {
    auto run = text_of(j, "run", false);
    if (!run) return fail(run.error());
    m.run = *run;
  } else if (m.language) {
    m.run = default_run(*m.language, m.main);
  } else {
    return fail(std::string("bot.json needs a \"language\" (") + enum_names_text<Language>() +
                ") or a \"run\" command");
  }
  if (auto words = match::split_command(m.run); !words)
    return fail(fmt::format("bot.json: \"run\" is not a command line: {}", words.error()));
  if (const auto it = j.find("seat_config"); it != j.end()) m.seat_config = *it;
  return m;
}

Result<Manifest> parse_manifest(std::string_view text) {
  if (text.size() > kManifestMaxBytes) return fail(fmt::format("bot.json is larger than {} bytes", kManifestMaxBytes));
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) return fail(std::string("bot.json is not valid JSON"));
  return manifest_from_json(j);
}

json to_json(const Manifest& m) {
  json j = json::object();
  if (m.language) {
    j["language"] = enum_name(*m.language);
    j["main"] = m.main;
  }
  if (!m.build.empty()) j["build"] = m.build;
  j["run"] = m.run;
  if (!m.seat_config.is_null()) j["seat_config"] = m.seat_config;
  return j;
}

}  // namespace arena::ladder
