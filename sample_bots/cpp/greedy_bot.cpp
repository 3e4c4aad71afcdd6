// greedy_bot: a Stellar bot that looks one decision ahead (greedy_policy.hpp holds the policy),
// a heuristic Stella Quest bot (stella_quest_policy.hpp) and a heuristic Interstellar bot
// (interstellar_policy.hpp); for any other game it plays a random legal action.
//
// The loop is random_bot's: read one JSON line, answer with one JSON line, flush; every hello
// starts a new match, so the bot plays match after match until its input ends ("reuse": true).
// It speaks protocol version 2 when the referee offers it, else version 1. The policies read
// version-1 views (card objects); a version-2 view (card ids) is expanded back into that form
// with the hello's card table first (protocol2.hpp): the pattern to copy if your own code reads
// version-1 views.
//   usage: greedy_bot
// Build: g++ -std=c++20 -O2 greedy_bot.cpp -o greedy_bot
//   (greedy_policy.hpp, stella_quest_policy.hpp, interstellar_policy.hpp and protocol2.hpp alongside)

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "greedy_policy.hpp"
#include "protocol2.hpp"

using nlohmann::json;

namespace {

// One message as one line, flushed: the JSON goes straight into cout's buffer, the flush sends
// the whole line in one write.
void send(const json& message) {
  std::cout << message << '\n' << std::flush;
}

}  // namespace

int main() {
  // Fast line I/O: unsynchronised iostreams read stdin in blocks (synchronised with C stdio,
  // every character is a separate call), and cin no longer flushes cout before each read.
  std::ios::sync_with_stdio(false);
  std::cin.tie(nullptr);

  int protocol = 1;            // the version chosen at the last hello
  protocol2::CardTable cards;  // that match's card table (version 2)
  std::string line;            // reused for every line
  while (std::getline(std::cin, line)) {
    json message = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!message.is_object()) {
      std::cerr << "greedy_bot: ignoring a line that is not a JSON object\n";
      continue;
    }
    const std::string type = message.value("type", "");
    if (type == "hello") {
      // A new match: its version and card table replace the last match's.
      protocol = protocol2::choose(message);
      cards.reset(message);
      json ready = {{"type", "ready"}, {"protocol", protocol}, {"name", "greedy_bot"}, {"version", "1.0"}};
      if (protocol == 2) ready["reuse"] = true;
      send(ready);
    } else if (type == "request") {
      // Version 2: card ids back to card objects, so that the policy reads a version-1 view.
      if (protocol == 2 && message.contains("view")) cards.expand(message["view"]);
      // The debug text goes to the replay (never to the opponent): handy when reading a game.
      const greedy::Decision d = greedy::decide(message);
      send({{"type", "action"},
            {"protocol", protocol},
            {"id", message.at("id")},
            {"action", d.action},
            {"debug", d.debug}});
    } else if (type == "game_over") {
      std::cerr << "greedy_bot: game over\n";
    }
  }
  return 0;
}
