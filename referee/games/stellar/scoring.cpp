#include "referee/games/stellar/scoring.hpp"

#include <algorithm>
#include <cassert>
#include <nlohmann/json.hpp>

#include "referee/core/index.hpp"

namespace arena::stellar {

namespace {

constexpr int kSectionPoints = 10;
constexpr int kDiversityPoints = 10;

int telescope_number(const Card& c, bool face_up) {
  return face_up ? c.number : 3;
}

// A type's notebook stack before satellites: a bit set of printed numbers 1-5, and how many 6/0
// cards it holds (each may count as 6 or 0).
struct Stack {
  unsigned numbers = 0;
  int six_zeros = 0;
};

// The best run a stack can reach, given extra satellite numbers, choosing 6/0 values.
// Returns the run and writes the chosen 6/0 numbers bit set (bit 0 and/or bit 6).
int best_run(const Stack& stack, unsigned extra, unsigned* chosen_six_zero) {
  const unsigned base = stack.numbers | extra;
  unsigned best_choice = 0;
  int best = longest_run(base);
  if (stack.six_zeros > 0) {
    // One 6/0 gives 6 or 0; two or more can give both.
    const unsigned options[] = {1u << 6, 1u << 0, (1u << 0) | (1u << 6)};
    const int n_options = stack.six_zeros >= 2 ? 3 : 2;
    best = -1;
    for (int i = 0; i < n_options; ++i) {
      const int run = longest_run(base | options[i]);
      if (run > best) {
        best = run;
        best_choice = options[i];
      }
    }
  }
  if (chosen_six_zero != nullptr) *chosen_six_zero = best_choice;
  return best;
}

struct Search {
  std::array<Stack, kTypedKinds> stacks{};
  std::array<int, kTypedKinds> stars{};
  std::vector<int> satellite_numbers;  // one entry per notebook satellite
  std::vector<int> assignment;         // current: type index per satellite, or -1
  std::vector<int> best_assignment;
  int best = -1;

  int evaluate() const {
    std::array<unsigned, kTypedKinds> extra{};
    for (std::size_t i = 0; i < assignment.size(); ++i) {
      if (assignment[i] >= 0) extra[idx(assignment[i])] |= 1u << satellite_numbers[i];
    }
    int total = 0;
    for (int t = 0; t < kTypedKinds; ++t) {
      total += stars[idx(t)] * best_run(stacks[idx(t)], extra[idx(t)], nullptr);
    }
    return total;
  }

  // Tries every stack for every satellite; stacks of types with no stars cannot score, so a
  // satellite only tries the starred ones (or none). At most 6^k leaves for k satellites.
  void run(std::size_t i) {
    if (i == satellite_numbers.size()) {
      const int value = evaluate();
      if (value > best) {
        best = value;
        best_assignment = assignment;
      }
      return;
    }
    assignment[i] = -1;
    run(i + 1);
    for (int t = 0; t < kTypedKinds; ++t) {
      if (stars[idx(t)] == 0) continue;
      if (stacks[idx(t)].numbers & (1u << satellite_numbers[i])) continue;  // adds nothing
      assignment[i] = t;
      run(i + 1);
    }
    assignment[i] = -1;
  }
};

PlayerScore score_player(const State& s, const Player& p) {
  const CardTable& deck = card_table(s);
  PlayerScore result;
  Search search;

  // Telescope: stars per type, section sums, diversity.
  std::array<bool, kTypedKinds> seen_type{};
  for (int slot = 0; slot < kTelescopeSlots; ++slot) {
    const Slot& ts = p.telescope[idx(slot)];
    if (ts.empty()) continue;
    const Card& c = deck[idx(ts.card)];
    result.section_sums[idx(section_of(slot))] += telescope_number(c, ts.face_up);
    if (ts.face_up && !c.satellite()) {
      search.stars[idx(static_cast<int>(c.type))] += c.stars;
      seen_type[idx(static_cast<int>(c.type))] = true;
    }
  }
  if (std::all_of(seen_type.begin(), seen_type.end(), [](bool b) { return b; })) {
    result.diversity = kDiversityPoints;
  }

  // Notebook stacks.
  std::vector<int> satellite_cards;
  std::array<std::vector<int>, kTypedKinds> six_zero_cards;
  for (CardId id : p.notebook) {
    const Card& c = deck[id];
    if (c.satellite()) {
      satellite_cards.push_back(id);
      search.satellite_numbers.push_back(c.number);
      continue;
    }
    Stack& stack = search.stacks[idx(static_cast<int>(c.type))];
    if (c.six_zero()) {
      ++stack.six_zeros;
      six_zero_cards[idx(static_cast<int>(c.type))].push_back(id);
    } else {
      stack.numbers |= 1u << c.number;
    }
  }
  search.assignment.assign(search.satellite_numbers.size(), -1);
  search.run(0);

  // The search leaves a satellite out (-1) when it can add to no run that scores: its number is
  // in every starred stack already, or no type has stars. The breakdown still names a stack for
  // it: the first type (in type order) whose stack already holds its number, where it changes
  // nothing; failing that, the first type, planet. Neither changes a score: joining a starred
  // stack cannot lengthen its run (the search would have kept that), and a stack without stars
  // scores 0 whatever its run.
  std::vector<int> assignment = search.best_assignment;
  std::array<unsigned, kTypedKinds> extra{};
  for (std::size_t i = 0; i < satellite_cards.size(); ++i) {
    if (assignment[i] >= 0) extra[idx(assignment[i])] |= 1u << search.satellite_numbers[i];
  }
  for (std::size_t i = 0; i < satellite_cards.size(); ++i) {
    if (assignment[i] >= 0) continue;
    const unsigned bit = 1u << search.satellite_numbers[i];
    int t = 0;
    while (t < kTypedKinds && ((search.stacks[idx(t)].numbers | extra[idx(t)]) & bit) == 0) ++t;
    if (t == kTypedKinds) t = 0;
    assignment[i] = t;
    extra[idx(t)] |= bit;
  }
  for (std::size_t i = 0; i < satellite_cards.size(); ++i) {
    result.satellites.push_back({satellite_cards[i], static_cast<CardType>(assignment[i])});
  }
  for (int t = 0; t < kTypedKinds; ++t) {
    TypeScore& ts = result.types[idx(t)];
    const Stack& stack = search.stacks[idx(t)];
    unsigned six_zero_choice = 0;
    ts.stars = search.stars[idx(t)];
    ts.run = best_run(stack, extra[idx(t)], &six_zero_choice);
    ts.points = ts.stars * ts.run;
    // The stack as scored: printed numbers, satellites that joined it, 6/0 values as chosen.
    for (CardId id : p.notebook) {
      const Card& c = deck[id];
      if (!c.satellite() && !c.six_zero() && static_cast<int>(c.type) == t) ts.stack.push_back(c.number);
    }
    for (std::size_t i = 0; i < satellite_cards.size(); ++i) {
      if (assignment[i] == t) ts.stack.push_back(search.satellite_numbers[i]);
    }
    // With one 6/0 the choice is 6 or 0; with several, the first takes 6 if 6 was chosen, the
    // next 0 if 0 was chosen, and any others 6.
    bool zero_given = false;
    bool six_given = false;
    for (int id : six_zero_cards[idx(t)]) {
      int value = 6;
      if ((six_zero_choice & (1u << 6)) && !six_given) {
        six_given = true;
      } else if ((six_zero_choice & 1u) && !zero_given) {
        zero_given = true;
        value = 0;
      }
      result.six_zero_values.emplace_back(id, value);
      ts.stack.push_back(value);
    }
    std::sort(ts.stack.begin(), ts.stack.end());
  }
  assert([&] {
    int points = 0;
    for (const TypeScore& ts : result.types) points += ts.points;
    return points == search.best;
  }());
  return result;
}

}  // namespace

int longest_run(unsigned numbers) {
  int best = 0;
  int current = 0;
  for (int n = 0; n <= kSixZero; ++n) {
    current = (numbers & (1u << n)) ? current + 1 : 0;
    best = std::max(best, current);
  }
  return best;
}

Outcome score(const State& s) {
  Outcome out;
  for (int seat = 0; seat < kSeats; ++seat) out.players[idx(seat)] = score_player(s, s.players[idx(seat)]);
  for (int section = 0; section < kSections; ++section) {
    const int a = out.players[0].section_sums[idx(section)];
    const int b = out.players[1].section_sums[idx(section)];
    if (a > b) out.players[0].section_points[idx(section)] = kSectionPoints;
    if (b > a) out.players[1].section_points[idx(section)] = kSectionPoints;
  }
  for (int seat = 0; seat < kSeats; ++seat) {
    PlayerScore& ps = out.players[idx(seat)];
    ps.total = ps.diversity;
    for (const TypeScore& ts : ps.types) ps.total += ts.points;
    for (int points : ps.section_points) ps.total += points;
    out.scores[idx(seat)] = ps.total;
  }
  if (out.scores[0] != out.scores[1]) out.winner = out.scores[0] > out.scores[1] ? 0 : 1;
  return out;
}

nlohmann::json to_json(const Outcome& outcome) {
  using nlohmann::json;
  static const char* kSectionNames[] = {"top", "middle", "bottom"};
  json players = json::array();
  for (const PlayerScore& ps : outcome.players) {
    json types = json::object();
    for (int t = 0; t < kTypedKinds; ++t) {
      const TypeScore& ts = ps.types[idx(t)];
      types[std::string(enum_name(static_cast<CardType>(t)))] = {
          {"stars", ts.stars}, {"run", ts.run}, {"points", ts.points}, {"stack", ts.stack}};
    }
    json sections = json::object();
    for (int k = 0; k < kSections; ++k) {
      sections[kSectionNames[k]] = {{"sum", ps.section_sums[idx(k)]}, {"points", ps.section_points[idx(k)]}};
    }
    json satellites = json::array();
    for (const auto& sat : ps.satellites) {
      // score() names a type for every satellite; null only for a hand-made PlayerScore.
      satellites.push_back({{"card", sat.card},
                            {"stack", sat.stack == CardType::satellite ? json(nullptr) : json(enum_name(sat.stack))}});
    }
    json six_zero = json::array();
    for (const auto& [card_id, value] : ps.six_zero_values) six_zero.push_back({{"card", card_id}, {"value", value}});
    int type_points = 0;
    int section_points = 0;
    for (const auto& ts : ps.types) type_points += ts.points;
    for (int pts : ps.section_points) section_points += pts;
    players.push_back({{"types", types},
                       {"type_points", type_points},
                       {"sections", sections},
                       {"section_points", section_points},
                       {"diversity", ps.diversity},
                       {"satellites", satellites},
                       {"six_zero", six_zero},
                       {"total", ps.total}});
  }
  return {{"scores", outcome.scores},
          {"winner", outcome.winner == kNone ? json(nullptr) : json(outcome.winner)},
          {"players", players}};
}

}  // namespace arena::stellar
