// search_bot: Monte Carlo search over determinizations with the rules library (docs/library.md),
// guided by the greedy bot's policies (greedy_policy.hpp).
//
// At each decision it rebuilds the game from the request (stellar_arena::Game::from_request: a
// state that shows its seat exactly the request's view, every card it cannot see drawn at random)
// and draws worlds from it (Game::determinize). Each candidate action is played in every world
// (the same worlds for every candidate: the comparison is between actions, not deals) and the world
// is finished by a playout: the greedy bot's policy plays every seat to the end (random play says
// little about a move, greedy play a lot), in Interstellar only to the start of the turn 2 turns
// after the request's, where search_interstellar.hpp's model of the race values the position (a
// whole Interstellar game per world cost about a quarter of a second a decision, and won less).
// The candidate whose worlds score best is played (a win 1, a k-way tie for first 1/k, plus a
// share of the margin over the best other seat; Interstellar's model its chance of a win; on a
// tie the greedy policy's choice). The candidates: the greedy policy's choice first, then the
// others by the policy's own value of them (Stellar's look-ahead, Interstellar's scores); in
// Stellar only the --candidates best (3: a play step has dozens of legal actions), in Interstellar
// 4, elsewhere every legal action.
// The work is bounded: the first playout's length tells how many policy decisions a world costs,
// and the worlds stop at --samples or when the next would pass the game's budget of policy
// decisions per request (never fewer than 8 worlds, 6 in Interstellar), so that a long game at 4
// seats stays within the time limit. Everything is counted, nothing timed: the same request gives
// the same choice (every draw is seeded from the request's id).
// Where the library cannot rebuild a game from a request (a game without from_request, a Stellar or
// Interstellar match with a deck list of a seat's own) it says so on stderr once and plays the
// greedy policy.
//
//   usage: search_bot [--samples N] [--candidates K] [--budget B] [--horizon T] [--margin M]
//                     [--rollout greedy|random]
//     defaults: Stella Quest 100 samples within 50,000 policy decisions; Stellar 12 samples of 3
//     candidates within 3,000; Interstellar 8 samples of 4 candidates within 400, horizon 2;
//     another game 12 samples within 3,000. --horizon T (Interstellar): play T turns before valuing
//     a world (0: to the end; the other games are always played to the end). --margin M: play another
//     candidate than the greedy choice only when it beats it by more than M on average (default 0;
//     in Interstellar 0.02 and 0.05 won less). --rollout random: Game::rollout, uniform play inside
//     the library, faster and weaker. Measured against the greedy bot: docs/library.md.
//     A flag it does not know, one without its value or with a wrong value: a message naming it on
//     stderr and exit code 2, before the bot reads anything.
//
// Build: with the library installed, find_package(stellar_arena) and link
// stellar_arena::stellar_arena (docs/library.md), greedy_policy.hpp, stella_quest_policy.hpp,
// interstellar_policy.hpp and search_interstellar.hpp beside this file; in this project, the target search_bot.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <numeric>
#include <string>
#include <vector>

#include "greedy_policy.hpp"
#include "search_interstellar.hpp"
#include "stellar_arena/game.hpp"

using stellar_arena::Game;
using stellar_arena::json;

namespace {

void send(const json& message) {
  std::cout << message << '\n' << std::flush;
}

struct Settings {
  int samples = 0;     // 0: the game's default
  int candidates = 0;  // 0: the game's default
  int horizon = -1;    // -1: the game's default; 0: play every world to the end
  double margin = -1;  // -1: the game's default
  long budget = 0;     // 0: the game's default
  bool random_rollouts = false;
};

// A game's defaults (see the top of the file).
struct Defaults {
  int samples;
  std::size_t candidates;  // 0: every legal action
  long budget;             // policy decisions per request, over all worlds and candidates
  int horizon;             // turns a world is played before it is valued (0: to the end)
  int min_samples;         // worlds played whatever the budget says
  double margin;           // how much better than the greedy choice another must be, on average
};

Defaults defaults_for(const std::string& name) {
  if (name == "stella_quest") return {100, 0, 50000, 0, 8, 0};
  if (name == "stellar") return {12, 3, 3000, 0, 8, 0};
  if (name == "interstellar") return {8, 4, 400, 2, 6, 0};
  return {12, 0, 3000, 0, 8, 0};
}

// A world's value for `seat`: 1 for a sole win, 1/k for a k-way tie for first, 0 for a loss; plus a
// share of the margin over the best other seat, so that among equal chances the larger lead wins.
double value(const std::vector<double>& scores, int seat) {
  double best_other = -1e300;
  int tied = 1;
  const double mine = scores[static_cast<std::size_t>(seat)];
  for (std::size_t s = 0; s < scores.size(); ++s) {
    if (static_cast<int>(s) == seat) continue;
    best_other = std::max(best_other, scores[s]);
    if (scores[s] == mine) ++tied;
  }
  const double win = mine > best_other ? 1.0 : mine == best_other ? 1.0 / tied : 0.0;
  return win + 0.02 * (mine - best_other);
}

// The greedy policy's request for the seat to act in `game` (a version-1 view, as it reads).
// Member by member: a {{key, value}, ...} list builds each pair as an array first, and this runs at
// every decision of every playout.
json greedy_request(const Game& game, int seat) {
  json request;
  request["type"] = "request";
  request["id"] = 0;
  request["seat"] = seat;
  request["view"] = game.view(seat, 1);
  request["legal"] = game.legal_actions();
  return request;
}

// The greedy policy's value of every legal action (Stellar's look-ahead, Interstellar's scores);
// elsewhere 1 for the greedy policy's choice and 0 for the others.
std::vector<double> greedy_values(const std::string& name, const json& request) {
  const json& legal = request.at("legal");
  if (name == "stellar") return greedy::detail::stellar_values(request);
  if (name == "interstellar") return interstellar_policy::values(request);
  std::vector<double> values(legal.size(), 0.0);
  const json choice = greedy::decide(request).action;
  for (std::size_t i = 0; i < legal.size(); ++i) {
    if (legal[i] == choice) values[i] = 1.0;
  }
  return values;
}

std::size_t best_index(const std::vector<double>& values) {
  return static_cast<std::size_t>(std::max_element(values.begin(), values.end()) - values.begin());
}

// Plays the greedy policy for every seat until the game ends or the turn numbered `stop_turn`
// begins (0: to the end; only Interstellar's views count turns this way); returns the world's
// value for `seat`: value() of the end's scores, or Interstellar's estimate of the position it
// stopped in. `choices` counts the decisions the policy took (those with more than one legal
// action).
double greedy_playout(Game& game, int seat, long stop_turn, long& choices) {
  while (!game.is_over()) {
    if (game.legal_count() == 1) {
      game.apply_index(0);
      continue;
    }
    const json request = greedy_request(game, *game.to_act());
    const json& view = request.at("view");
    if (stop_turn > 0 && view.value("turn", 0L) >= stop_turn) return search_interstellar::evaluate(view, seat);
    game.apply_index(best_index(greedy_values(game.name(), request)));
    ++choices;
  }
  return value(game.scores(), seat);
}

std::size_t choose(const std::string& name, const json& config, const json& request, const Settings& settings) {
  const int seat = request.at("seat").get<int>();
  const std::uint64_t id = request.at("id").get<std::uint64_t>();
  const Game root = Game::from_request(name, request, id, config);
  const std::size_t actions = root.legal_count();
  if (actions == 1) return 0;
  const Defaults defaults = defaults_for(name);
  int samples = settings.samples > 0 ? settings.samples : defaults.samples;
  const long budget = settings.budget > 0 ? settings.budget : defaults.budget;
  const int horizon = settings.horizon >= 0 ? settings.horizon : defaults.horizon;
  // Only Interstellar has a model to value a position that is not over (search_interstellar.hpp).
  const long stop_turn = horizon > 0 && name == "interstellar" ? request.at("view").value("turn", 0L) + horizon : 0;

  // The candidates, the greedy policy's choice first (it wins the ties: many moves are worth the
  // same in every world, and the greedy choice among them is the better one, measured); in Stellar
  // only the greedy look-ahead's best few.
  std::vector<std::size_t> candidates(actions);
  std::iota(candidates.begin(), candidates.end(), std::size_t{0});
  const std::vector<double> prior = greedy_values(name, request);
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](std::size_t a, std::size_t b) { return prior[a] > prior[b]; });
  const std::size_t keep =
      settings.candidates > 0 ? static_cast<std::size_t>(settings.candidates) : defaults.candidates;
  if (keep > 0 && keep < actions) candidates.resize(keep);
  if (candidates.size() == 1) return candidates[0];

  std::vector<double> totals(candidates.size(), 0.0);
  long choices = 0;
  for (int k = 0; k < samples; ++k) {
    const std::uint64_t world_seed = id * 1000003 + static_cast<std::uint64_t>(k);
    const Game world = root.determinize(seat, world_seed);
    for (std::size_t c = 0; c < candidates.size(); ++c) {
      Game game = world;
      game.apply_index(candidates[c]);
      if (game.is_over()) {
        totals[c] += value(game.scores(), seat);
      } else if (settings.random_rollouts) {
        totals[c] += value(game.rollout(static_cast<std::uint64_t>(k)), seat);
      } else {
        totals[c] += greedy_playout(game, seat, stop_turn, choices);
      }
      if (k == 0 && c == 0) {
        // The first rollout's length prices a world: as many worlds as the budget pays for.
        const long per_world = std::max(1L, choices) * static_cast<long>(candidates.size());
        samples = std::min(samples, std::max(defaults.min_samples, static_cast<int>(budget / per_world)));
      }
    }
  }
  // The first best: on a tie, the earlier candidate (the greedy choice first); another candidate
  // than the greedy choice only when it beats it by more than the margin on average.
  const std::size_t best = best_index(totals);
  const double margin = settings.margin >= 0 ? settings.margin : defaults.margin;
  if (best != 0 && totals[best] - totals[0] <= margin * samples) return candidates[0];
  return candidates[best];
}

constexpr int kUsageError = 2;  // a flag unknown, without its value or with a wrong one

[[noreturn]] void usage_error(const std::string& problem) {
  std::cerr << "search_bot: " << problem
            << "\nusage: search_bot [--samples N] [--candidates K] [--budget B] [--horizon T] [--margin M] "
               "[--rollout greedy|random]\n";
  std::exit(kUsageError);
}

// A flag's whole number in [low, high], or a usage error naming the flag and the text.
long whole_flag(const std::string& flag, const std::string& text, long low, long high) {
  std::size_t used = 0;
  long value = 0;
  try {
    value = std::stol(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || value < low || value > high) {
    usage_error(flag + " takes a whole number from " + std::to_string(low) + " to " + std::to_string(high) + ", not '" +
                text + "'");
  }
  return value;
}

Settings parse_flags(int argc, char** argv) {
  Settings settings;
  for (int i = 1; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (i + 1 == argc) usage_error(flag + " needs a value");
    const std::string text = argv[i + 1];
    if (flag == "--samples") {
      settings.samples = static_cast<int>(whole_flag(flag, text, 1, 1000000));
    } else if (flag == "--candidates") {
      settings.candidates = static_cast<int>(whole_flag(flag, text, 1, 1000000));
    } else if (flag == "--horizon") {
      settings.horizon = static_cast<int>(whole_flag(flag, text, 0, 1000));
    } else if (flag == "--budget") {
      settings.budget = whole_flag(flag, text, 1, 1000000000);
    } else if (flag == "--margin") {
      std::size_t used = 0;
      try {
        settings.margin = std::stod(text, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != text.size() || !(settings.margin >= 0 && settings.margin <= 1)) {
        usage_error("--margin takes a number from 0 to 1, not '" + text + "'");
      }
    } else if (flag == "--rollout") {
      if (text != "greedy" && text != "random") usage_error("--rollout takes greedy or random, not '" + text + "'");
      settings.random_rollouts = text == "random";
    } else {
      usage_error("unknown flag '" + flag + "'");
    }
  }
  return settings;
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::cin.tie(nullptr);
  const Settings settings = parse_flags(argc, argv);
  json hello;
  bool can_search = true;
  std::string line;
  while (std::getline(std::cin, line)) {
    json message = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!message.is_object()) continue;
    const std::string type = message.value("type", "");
    if (type == "hello") {
      // Protocol 1: whole views, which from_request and the greedy policies read in every game.
      hello = message;
      can_search = true;
      send({{"type", "ready"}, {"protocol", 1}, {"name", "search_bot"}, {"version", "2.0"}});
    } else if (type == "request") {
      json action;
      if (can_search) {
        try {
          const std::size_t index =
              choose(hello.at("game").get<std::string>(), hello.value("config", json(nullptr)), message, settings);
          action = message.at("legal").at(index);
        } catch (const stellar_arena::Error& e) {
          std::cerr << "search_bot: no search in this game (" << e.what() << "): the greedy policy\n";
          can_search = false;
        }
      }
      if (action.is_null()) action = greedy::decide(message).action;
      send({{"type", "action"}, {"protocol", 1}, {"id", message.at("id")}, {"action", action}});
    }
  }
}
