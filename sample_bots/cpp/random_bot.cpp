// random_bot: the smallest useful bot, and a starting point for your own.
//
// It speaks protocol v1 of the referee: one JSON object per line on stdin, one JSON object per
// line on stdout, flushed after every line. It works for any game, because it only reads the
// request's "legal" list and answers with one of its entries, chosen uniformly at random.
//
//   usage: random_bot [--seed N]      (the seed is mixed with the seat from the hello message)
//
// Build: g++ -std=c++20 -O2 random_bot.cpp -o random_bot   (needs nlohmann/json.hpp)

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

using nlohmann::json;

namespace {

// Writes one message as one line and flushes: the referee waits for the newline.
void send(const json& message) {
  std::cout << message.dump() << '\n' << std::flush;
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t seed = 0;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
  }
  // std::mt19937_64 gives the same numbers on every standard library (its distributions do not,
  // hence the plain modulo below; its bias is negligible for lists this short).
  std::mt19937_64 rng(seed);

  std::string line;
  while (std::getline(std::cin, line)) {  // the referee closes stdin at the end: we exit on EOF
    json message = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!message.is_object()) {
      std::cerr << "random_bot: ignoring a line that is not a JSON object\n";
      continue;
    }
    const std::string type = message.value("type", "");

    if (type == "hello") {
      // Handshake: which game, which seat. Answer "ready" with a name (1-64 bytes).
      const int seat = message.value("seat", 0);
      rng.seed(seed * 1000003u + static_cast<std::uint64_t>(seat));
      send({{"type", "ready"}, {"protocol", 1}, {"name", "random_bot"}, {"version", "1.0"}});

    } else if (type == "request") {
      // A decision: "view" is what this seat may see, "legal" every action allowed now.
      // Answer with one of the legal actions, copied as is, and the request's id.
      const json& legal = message.at("legal");  // never empty
      const std::size_t pick = static_cast<std::size_t>(rng() % legal.size());
      send({{"type", "action"}, {"protocol", 1}, {"id", message.at("id")}, {"action", legal[pick]}});

    } else if (type == "game_over") {
      // The result; stdin closes right after, which ends the loop.
      std::cerr << "random_bot: game over\n";
    }
  }
  return 0;
}
