// greedy_bot: a Stellar bot that looks one decision ahead (greedy_policy.hpp holds the policy),
// and a heuristic Stella Quest bot (stella_quest_policy.hpp); for any other game it plays a
// random legal action.
//
// The loop is the same as random_bot's: read one JSON line, answer with one JSON line, flush.
//   usage: greedy_bot
// Build: g++ -std=c++20 -O2 greedy_bot.cpp -o greedy_bot
//   (greedy_policy.hpp and stella_quest_policy.hpp alongside)

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "greedy_policy.hpp"

using nlohmann::json;

namespace {

void send(const json& message) {
  std::cout << message.dump() << '\n' << std::flush;
}

}  // namespace

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    json message = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!message.is_object()) {
      std::cerr << "greedy_bot: ignoring a line that is not a JSON object\n";
      continue;
    }
    const std::string type = message.value("type", "");
    if (type == "hello") {
      send({{"type", "ready"}, {"protocol", 1}, {"name", "greedy_bot"}, {"version", "1.0"}});
    } else if (type == "request") {
      // The debug text goes to the replay (never to the opponent): handy when reading a game.
      const greedy::Decision d = greedy::decide(message);
      send({{"type", "action"}, {"protocol", 1}, {"id", message.at("id")}, {"action", d.action}, {"debug", d.debug}});
    } else if (type == "game_over") {
      std::cerr << "greedy_bot: game over\n";
    }
  }
  return 0;
}
