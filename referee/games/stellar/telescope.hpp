#pragma once
// The telescope: 12 slots in a centred pyramid (docs/games/stellar.md, section 3).
//
//            1                 top section    = slots 1-5
//          2   3
//          4   5
//        6   7   8             middle section = slots 6-8
//      9  10  11  12           bottom section = slots 9-12
//
// Slots are numbered 1-12 in rules and JSON; arrays here are indexed 0-11.

#include <array>
#include <cstddef>
#include <cstdint>

namespace arena::stellar {

inline constexpr int kTelescopeSlots = 12;
inline constexpr int kSections = 3;

// The pyramid as the drawings lay it out: each row's slot indexes, and its indent in half cells
// (row 6-7-8 sits half a card left of 4-5, row 9-12 half a card again).
struct PyramidRow {
  std::array<int, 4> slots;
  std::size_t count;
  std::size_t indent;
};
inline constexpr std::array<PyramidRow, 5> kPyramidRows{
    {{{0}, 1, 3}, {{1, 2}, 2, 2}, {{3, 4}, 2, 2}, {{5, 6, 7}, 3, 1}, {{8, 9, 10, 11}, 4, 0}}};

// Bit i set = slot i+1 shares an edge with the given slot.
std::uint16_t neighbours(int slot_index);

// 0 = top, 1 = middle, 2 = bottom.
int section_of(int slot_index);

}  // namespace arena::stellar
