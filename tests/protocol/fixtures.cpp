#include "tests/protocol/fixtures.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <stdexcept>

namespace arena::protocol_test {

std::filesystem::path source_dir() {
  return ARENA_SOURCE_DIR;
}

std::vector<std::string> read_lines(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

const json& schema_for(const std::string& type) {
  static std::map<std::string, json> cache;
  auto it = cache.find(type);
  if (it == cache.end()) {
    const auto path = source_dir() / "protocol" / "schema" / (type + ".schema.json");
    std::ifstream in(path);
    if (!in) throw std::runtime_error("no schema " + path.string());
    it = cache.emplace(type, json::parse(in)).first;
  }
  return it->second;
}

std::vector<std::filesystem::path> transcript_files() {
  namespace fs = std::filesystem;
  std::vector<fs::path> folders = {source_dir() / "protocol" / "transcripts"};
  for (const auto& game : fs::directory_iterator(source_dir() / "referee" / "games")) {
    if (fs::is_directory(game.path() / "transcripts")) folders.push_back(game.path() / "transcripts");
  }
  std::vector<fs::path> files;
  for (const auto& folder : folders) {
    for (const auto& entry : fs::directory_iterator(folder)) {
      if (entry.path().extension() == ".jsonl" && entry.path().filename() != "bad_lines.jsonl") {
        files.push_back(entry.path());
      }
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string decode_bytes(std::string_view escaped) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (std::size_t i = 0; i < escaped.size(); ++i) {
    if (escaped[i] == '\\' && i + 3 < escaped.size() && escaped[i + 1] == 'x' && hex(escaped[i + 2]) >= 0 &&
        hex(escaped[i + 3]) >= 0) {
      out += static_cast<char>(hex(escaped[i + 2]) * 16 + hex(escaped[i + 3]));
      i += 3;
    } else {
      out += escaped[i];
    }
  }
  return out;
}

bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      n = 1;
      cp = c & 0x1Fu;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2;
      cp = c & 0x0Fu;
    } else if ((c & 0xF8) == 0xF0) {
      n = 3;
      cp = c & 0x07u;
    } else {
      return false;
    }
    if (i + n >= s.size()) return false;  // truncated sequence
    for (std::size_t k = 1; k <= n; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3Fu);
    }
    const std::uint32_t min[] = {0, 0x80, 0x800, 0x10000};
    if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n + 1;
  }
  return true;
}

bool printable_ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7F; });
}

}  // namespace arena::protocol_test
