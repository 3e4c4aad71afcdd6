#pragma once
// A submission's bot.json (docs/ladder-submissions.md): how the ladder builds and runs it.
//
//   {"language": "cpp" | "python" | "javascript", "main": "bot.py"}    a kit's defaults
//   {"build": "make", "run": "./engine --fast"}                          explicit commands
//
// Either form may be combined: "build" and "run" override the language's defaults. The reader is
// strict: an unknown key, a value of the wrong type, an empty command, a control character or a
// "main" that leaves the folder is refused with the key named. A manifest read is normalized:
// every command resolved, so its JSON (to_json) reads back to the same Manifest.
//
// Defaults per language (the build runs in the submission's folder under /bin/sh; "run" is a
// command line relative to the built folder, split like a shell would):
//   cpp         build  g++ -std=c++20 -O2 -o bot *.cpp  (or only "main")   run  ./bot
//   python      build  python3 -m py_compile bot.py     (a syntax check)   run  python3 -u bot.py
//   javascript  build  node --check bot.js              (a syntax check)   run  node bot.js

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "referee/core/enum_names.hpp"
#include "referee/core/result.hpp"

namespace arena::ladder {

enum class Language { cpp, python, javascript };

}  // namespace arena::ladder

template <>
struct arena::EnumNames<arena::ladder::Language> {
  using E = ladder::Language;
  static constexpr auto table = name_table(E::cpp, "cpp", E::python, "python", E::javascript, "javascript");
};

namespace arena::ladder {

// The file every submission holds at its root.
inline constexpr std::string_view kManifestName = "bot.json";
// Larger is refused before it is parsed.
inline constexpr std::size_t kManifestMaxBytes = 64 * 1024;
// The longest command or entry file accepted.
inline constexpr std::size_t kCommandMaxBytes = 4096;

struct Manifest {
  std::optional<Language> language;
  std::string main;   // the entry file, relative to the folder (with a language; else empty)
  std::string build;  // a /bin/sh script run in the folder; empty: nothing to build
  std::string run;    // the bot's command line, relative to the built folder; never empty
  // Its own seat configuration (a Stellar deck list, an Interstellar character): checked by the
  // game at submission, in a ladder whose ladder.json has "seat_configs": true; null: none.
  nlohmann::json seat_config;
  bool operator==(const Manifest&) const = default;
};

// The entry file a language uses when "main" is not given.
std::string_view default_main(Language language);

// Reads and normalizes a manifest; the error names the key ("bot.json: \"main\" must be a
// string").
Result<Manifest> manifest_from_json(const nlohmann::json& j);
// The same from the file's text (at most kManifestMaxBytes), refusing text that is not JSON.
Result<Manifest> parse_manifest(std::string_view text);
// Every field, resolved ("language" and "main" only with a language, "build" only when there is
// one): what the store keeps.
nlohmann::json to_json(const Manifest& m);

}  // namespace arena::ladder
