#pragma once
// A seat, card or slot number as a container index: the games count with int, as the wire does,
// and index their vectors with std::size_t. One definition for every game and test (a file of its
// own would clash with another's in a unity build).

#include <cstddef>

namespace arena {

constexpr std::size_t idx(int i) {
  return static_cast<std::size_t>(i);
}

}  // namespace arena
