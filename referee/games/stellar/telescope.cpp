#include "referee/games/stellar/telescope.hpp"

#include <cassert>

namespace arena::stellar {

namespace {

// Row and x-interval (in half-card units) of each slot; adjacency follows from the geometry:
// same row and consecutive, or consecutive rows with an x-overlap of positive length.
struct Place {
  int row;
  int left;
};
constexpr std::array<Place, kTelescopeSlots> kPlaces = {{
    {0, 1},  // 1
    {1, 0},
    {1, 2},  // 2 3
    {2, 0},
    {2, 2},  // 4 5
    {3, -1},
    {3, 1},
    {3, 3},  // 6 7 8
    {4, -2},
    {4, 0},
    {4, 2},
    {4, 4},  // 9 10 11 12
}};
constexpr int kWidth = 2;

constexpr bool adjacent(const Place& a, const Place& b) {
  if (a.row == b.row) return a.left + kWidth == b.left || b.left + kWidth == a.left;
  if (a.row - b.row != 1 && b.row - a.row != 1) return false;
  const int overlap_left = a.left > b.left ? a.left : b.left;
  const int overlap_right = a.left < b.left ? a.left + kWidth : b.left + kWidth;
  return overlap_right - overlap_left > 0;
}

constexpr std::array<std::uint16_t, kTelescopeSlots> build_neighbours() {
  std::array<std::uint16_t, kTelescopeSlots> result{};
  for (int i = 0; i < kTelescopeSlots; ++i) {
    for (int j = 0; j < kTelescopeSlots; ++j) {
      if (i != j && adjacent(kPlaces[static_cast<std::size_t>(i)], kPlaces[static_cast<std::size_t>(j)])) {
        result[static_cast<std::size_t>(i)] =
            static_cast<std::uint16_t>(result[static_cast<std::size_t>(i)] | (1u << j));
      }
    }
  }
  return result;
}

constexpr auto kNeighbours = build_neighbours();

// The graph of docs/games/stellar.md, spelled out, so a change of geometry cannot go unnoticed.
constexpr std::uint16_t bits(std::initializer_list<int> slots) {
  std::uint16_t b = 0;
  for (int s : slots) b = static_cast<std::uint16_t>(b | (1u << (s - 1)));
  return b;
}
static_assert(kNeighbours[0] == bits({2, 3}));
static_assert(kNeighbours[3] == bits({2, 5, 6, 7}));
static_assert(kNeighbours[5] == bits({4, 7, 9, 10}));
static_assert(kNeighbours[6] == bits({4, 5, 6, 8, 10, 11}));
static_assert(kNeighbours[7] == bits({5, 7, 11, 12}));
static_assert(kNeighbours[11] == bits({8, 11}));

}  // namespace

std::uint16_t neighbours(int slot_index) {
  assert(slot_index >= 0 && slot_index < kTelescopeSlots);
  return kNeighbours[static_cast<std::size_t>(slot_index)];
}

int section_of(int slot_index) {
  assert(slot_index >= 0 && slot_index < kTelescopeSlots);
  return slot_index < 5 ? 0 : slot_index < 8 ? 1 : 2;
}

}  // namespace arena::stellar
