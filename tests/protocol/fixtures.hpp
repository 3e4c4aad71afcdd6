#pragma once
// Reading the protocol fixtures from the source tree: protocol/schema/<type>.schema.json,
// protocol/transcripts/*.jsonl and each game's referee/games/<game>/transcripts/*.jsonl (format:
// protocol/transcripts/README.md).

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace arena::protocol_test {

using nlohmann::json;

std::filesystem::path source_dir();
std::vector<std::string> read_lines(const std::filesystem::path& path);

// The schema of a message type ("hello", "ready", "request", "action", "game_over"), loaded once.
const json& schema_for(const std::string& type);

// The example transcripts (every protocol/transcripts/*.jsonl except bad_lines.jsonl, and every
// game folder's transcripts/*.jsonl: a glob, no list of games), sorted.
std::vector<std::filesystem::path> transcript_files();

// bad_lines.jsonl's "bytes" field: \xNN is one raw byte, every other character stands for itself.
std::string decode_bytes(std::string_view escaped);

bool valid_utf8(std::string_view s);
bool printable_ascii(std::string_view s);

}  // namespace arena::protocol_test
