// search_bot: Monte Carlo search over determinizations with the rules library (docs/library.md).
//
// At each decision it rebuilds the game from the request (stellar_arena::Game::from_request: a
// state that shows its seat exactly the request's view, every card it cannot see drawn at random),
// then, for every legal action, plays it in --samples determinizations of that state
// (Game::determinize) and finishes each by random play inside the library (Game::rollout). It
// keeps the action whose worlds it wins most often (a tie for first counts half), the margin over
// the best other seat breaking ties. Every game is rebuilt from a request (Stellar with the standard
// deck, Interstellar with IS-Core's deck lists); in a match with a deck list of a seat's own the
// rebuild is refused, and it says so on stderr once and plays the first legal action.
//
//   usage: search_bot [--samples N]   (default 200; the same request gives the same choice)
//
// Build: with the library installed, find_package(stellar_arena) and link
// stellar_arena::stellar_arena (docs/library.md); in this project, the target search_bot.

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include "stellar_arena/game.hpp"

using stellar_arena::Game;
using stellar_arena::json;

namespace {

void send(const json& message) {
  std::cout << message << '\n' << std::flush;
}

// A world's value for `seat`: 1 for a sole win, 1/k for a k-way tie for first, 0 for a loss; plus a
// small share of the margin over the best other seat, so that among equal chances the larger lead wins.
double value(const std::vector<double>& scores, int seat) {
  double best_other = -1e300;
  int tied = 1;
  for (std::size_t s = 0; s < scores.size(); ++s) {
    if (static_cast<int>(s) == seat) continue;
    best_other = std::max(best_other, scores[s]);
  }
  for (std::size_t s = 0; s < scores.size(); ++s) {
    if (static_cast<int>(s) != seat && scores[s] == scores[static_cast<std::size_t>(seat)]) ++tied;
  }
  const double mine = scores[static_cast<std::size_t>(seat)];
  const double win = mine > best_other ? 1.0 : mine == best_other ? 1.0 / tied : 0.0;
  return win + 1e-3 * (mine - best_other);
}

std::size_t choose(const std::string& game, const json& config, const json& request, int samples) {
  const int seat = request.at("seat").get<int>();
  const std::uint64_t id = request.at("id").get<std::uint64_t>();
  const Game root = Game::from_request(game, request, id, config);
  const std::size_t actions = root.legal_count();
  std::size_t best = 0;
  double best_value = -1e300;
  for (std::size_t i = 0; i < actions; ++i) {
    double total = 0;
    for (int k = 0; k < samples; ++k) {
      // The same worlds for every action: the comparison is between actions, not between deals.
      Game world = root.determinize(seat, id * 1000003 + static_cast<std::uint64_t>(k));
      world.apply_index(i);
      const std::vector<double> scores =
          world.is_over() ? world.scores() : world.rollout(static_cast<std::uint64_t>(k));
      total += value(scores, seat);
    }
    if (total > best_value) {
      best = i;
      best_value = total;
    }
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::cin.tie(nullptr);
  int samples = 200;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--samples") samples = std::max(1, std::atoi(argv[i + 1]));
  }
  json hello;
  bool can_search = true;
  std::string line;
  while (std::getline(std::cin, line)) {
    json message = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!message.is_object()) continue;
    const std::string type = message.value("type", "");
    if (type == "hello") {
      // Protocol 1: whole views, which from_request reads in every game.
      hello = message;
      can_search = true;
      send({{"type", "ready"}, {"protocol", 1}, {"name", "search_bot"}, {"version", "1.0"}});
    } else if (type == "request") {
      std::size_t index = 0;
      if (can_search) {
        try {
          index = choose(hello.at("game").get<std::string>(), hello.value("config", json(nullptr)), message, samples);
        } catch (const stellar_arena::Error& e) {
          std::cerr << "search_bot: no search in this game (" << e.what() << "): the first legal action\n";
          can_search = false;
        }
      }
      send({{"type", "action"}, {"protocol", 1}, {"id", message.at("id")}, {"action", message.at("legal").at(index)}});
    }
  }
}
