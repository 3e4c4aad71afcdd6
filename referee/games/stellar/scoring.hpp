#pragma once
// Stellar scoring (docs/games/stellar.md), with a full breakdown per player:
//  1. per type: stars on face-up telescope cards x the longest run of consecutive distinct
//     numbers in that type's notebook stack;
//  2. per section (top 1-5, middle 6-8, bottom 9-12): the strictly higher sum of numbers scores 10
//     (6/0 = 6, satellite = its number, face down = 3);
//  3. 10 for at least one face-up card of each of the five types.
// Notebook satellites join whichever stacks, and notebook 6/0 cards take whichever value (6 or 0),
// maximise their owner's score; the breakdown says which were chosen (a satellite that scores
// nowhere is named in the first stack holding its number already, else planet's).

#include <array>
#include <nlohmann/json_fwd.hpp>
#include <vector>

#include "referee/games/stellar/rules.hpp"

namespace arena::stellar {

struct TypeScore {
  int stars = 0;
  int run = 0;
  int points = 0;
  std::vector<int> stack;  // the numbers in the stack as scored, sorted (6/0 as chosen)
  bool operator==(const TypeScore&) const = default;
};

struct SatelliteChoice {
  int card = kNone;
  // The stack it joins. score() always names a type: where it scores best, or, when it adds to
  // no run that scores, the first type whose stack holds its number already, else planet.
  CardType stack = CardType::satellite;
  bool operator==(const SatelliteChoice&) const = default;
};

struct PlayerScore {
  std::array<TypeScore, kTypedKinds> types{};
  std::array<int, kSections> section_sums{};
  std::array<int, kSections> section_points{};  // 10 for a section won, else 0
  int diversity = 0;
  int total = 0;
  std::vector<SatelliteChoice> satellites;           // notebook satellites and their stacks
  std::vector<std::pair<int, int>> six_zero_values;  // notebook 6/0 card -> 6 or 0
  bool operator==(const PlayerScore&) const = default;
};

struct Outcome {
  std::array<PlayerScore, kSeats> players{};
  std::array<int, kSeats> scores{};
  int winner = kNone;  // kNone for a draw
  bool operator==(const Outcome&) const = default;
};

// Longest run of consecutive numbers in a bit set of numbers 0..6 (bit n = number n present).
int longest_run(unsigned numbers);

// Scores both players from their tableaux; valid at any point (the game need not be over).
Outcome score(const State& s);

nlohmann::json to_json(const Outcome& outcome);

}  // namespace arena::stellar
