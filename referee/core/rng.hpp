#pragma once
// The project's only source of randomness. xoshiro256** seeded through SplitMix64, with its own
// bounded draw and Fisher-Yates shuffle, so a seed gives the same game on every standard library
// (std::uniform_int_distribution and std::shuffle are implementation-defined).

#include <array>
#include <cstdint>
#include <span>
#include <utility>

namespace arena {

// One SplitMix64 step: advances `state` and returns a well-mixed 64-bit value.
std::uint64_t splitmix64(std::uint64_t& state);

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0);

  std::uint64_t next();
  // Uniform in [0, bound) without modulo bias (Lemire's multiply-and-reject). bound > 0.
  std::uint64_t below(std::uint64_t bound);

  // Fisher-Yates, from the back: element i swaps with a uniform index in [0, i].
  template <typename T>
  void shuffle(std::span<T> items) {
    for (std::size_t i = items.size(); i > 1; --i) {
      std::size_t j = static_cast<std::size_t>(below(i));
      std::swap(items[i - 1], items[j]);
    }
  }
  template <typename Container>
  void shuffle(Container& items) {
    shuffle(std::span(items.data(), items.size()));
  }

  // The raw state, for serialisation; from_state(state()) continues the same sequence.
  std::array<std::uint64_t, 4> state() const { return s_; }
  static Rng from_state(const std::array<std::uint64_t, 4>& s);

  bool operator==(const Rng&) const = default;

 private:
  std::array<std::uint64_t, 4> s_{};
};

// A child seed derived from a parent seed and an index (deal i of a test run, ...). Public and
// invertible: whoever knows one child and its index knows the parent and every sibling, so it is
// not for seeds a bot must not predict (leagues use a keyed hash, referee/league/seeds.hpp).
std::uint64_t derive_seed(std::uint64_t parent, std::uint64_t index);

// 64 bits from the operating system's random source (getrandom(2)), for seeds nobody may
// predict: `referee play` and `validate` without --seed, a league without a seed. Throws
// std::system_error if the kernel refuses.
std::uint64_t os_random_u64();

}  // namespace arena
