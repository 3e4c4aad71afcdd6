#include "referee/games/stellar/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "referee/games/stellar/scoring.hpp"
#include "referee/games/stellar/telescope.hpp"

namespace arena::stellar {

namespace {

constexpr int kCell = 18;  // width of one telescope slot

std::string slot_text(const State& s, const Slot& slot, int index) {
  if (slot.empty()) return fmt::format("{:>2} .", index + 1);
  const std::string name = card(s, slot.card).name;
  return fmt::format("{:>2} {}", index + 1, slot.face_up ? name : "(" + name + ")");
}

std::string number_text(int n) {
  return n == kSixZero ? "6/0" : std::to_string(n);
}

}  // namespace

std::string describe(const State& s) {
  const Outcome o = score(s);
  std::string out;
  for (int seat = 0; seat < kSeats; ++seat) {
    const Player& p = s.players[static_cast<std::size_t>(seat)];
    const PlayerScore& ps = o.players[static_cast<std::size_t>(seat)];
    out += fmt::format("seat {}: {} points\n  telescope (face down in parentheses):\n", seat, ps.total);
    for (const PyramidRow& row : kPyramidRows) {
      std::string line(4 + row.indent * static_cast<std::size_t>(kCell) / 2, ' ');
      for (std::size_t k = 0; k < row.count; ++k) {
        const int i = row.slots[k];
        line += fmt::format("{:<{}}", slot_text(s, p.telescope[static_cast<std::size_t>(i)], i), kCell);
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
    // Notebook stacks by type, satellites apart (their scoring stack is in the breakdown).
    out += "  notebook:";
    for (int t = 0; t <= kTypedKinds; ++t) {
      std::vector<int> numbers;
      for (CardId c : p.notebook) {
        if (static_cast<int>(card(s, c).type) == t) numbers.push_back(card(s, c).number);
      }
      if (numbers.empty()) continue;
      std::sort(numbers.begin(), numbers.end());
      std::string list;
      for (int n : numbers) {
        if (!list.empty()) list += ' ';
        list += number_text(n);
      }
      out += fmt::format(" {} [{}]", type_label(static_cast<CardType>(t)), list);
    }
    out += "\n  score:";
    for (int t = 0; t < kTypedKinds; ++t) {
      const TypeScore& ts = ps.types[static_cast<std::size_t>(t)];
      out += fmt::format(" {} {}*x{}={}", type_label(static_cast<CardType>(t)), ts.stars, ts.run, ts.points);
    }
    const auto& sums = ps.section_sums;
    const auto& other = o.players[static_cast<std::size_t>(1 - seat)].section_sums;
    out +=
        fmt::format("\n         sections top {} vs {}, middle {} vs {}, bottom {} vs {}: {}; diversity {}; total {}\n",
                    sums[0], other[0], sums[1], other[1], sums[2], other[2],
                    ps.section_points[0] + ps.section_points[1] + ps.section_points[2], ps.diversity, ps.total);
  }
  out += o.winner == kNone ? "a draw\n" : fmt::format("seat {} wins\n", o.winner);
  return out;
}

}  // namespace arena::stellar
