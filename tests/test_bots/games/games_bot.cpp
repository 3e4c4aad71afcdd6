// games_bot: a protocol-2 bot that says which games it plays (docs/protocol.md, "ready.games").
//
//   games_bot GAMES_JSON
//
// GAMES_JSON is the "games" list its ready carries, e.g. '["stella_quest"]' or
// '[{"name": "stellar", "seats": [2]}]'. It then plays the first legal action of every request
// until game_over or EOF. The tests use it to check that a match of a game it does not list ends in
// the handshake with an unsupported_game fault, and that one it lists is played.

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

using nlohmann::json;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: games_bot GAMES_JSON\n";
    return 2;
  }
  const json games = json::parse(argv[1], nullptr, false);
  if (games.is_discarded()) {
    std::cerr << "games_bot: GAMES_JSON is not JSON\n";
    return 2;
  }
  std::string line;
  while (std::getline(std::cin, line)) {
    const json m = json::parse(line, nullptr, false);
    if (m.is_discarded() || !m.is_object()) continue;
    const std::string type = m.value("type", "");
    if (type == "hello") {
      const json ready = {{"type", "ready"}, {"protocol", 2}, {"name", "games_bot"}, {"games", games}};
      std::cout << ready.dump() << std::endl;
    } else if (type == "request") {
      const json action = {{"type", "action"}, {"protocol", 2}, {"id", m.at("id")}, {"action", m.at("legal").at(0)}};
      std::cout << action.dump() << std::endl;
    } else if (type == "game_over") {
      break;
    }
  }
  return 0;
}
