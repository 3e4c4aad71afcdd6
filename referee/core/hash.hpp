#pragma once
// A stable 64-bit hash: the same bytes give the same value on every machine and compiler, so
// state hashes can be stored in replays and pinned in tests. FNV-1a over bytes, with a final
// avalanche so that nearby inputs spread.

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

namespace arena {

class Hasher {
 public:
  Hasher() = default;
  // Goes on from the state() of another Hasher: a fixed prefix hashed once and kept.
  explicit Hasher(std::uint64_t state) : h_(state) {}
  std::uint64_t state() const { return h_; }
  Hasher& bytes(std::string_view data);
  // The 8 bytes of `value`, little-endian whatever the host. FNV-1a multiplies by the prime at
  // every byte and a zero byte changes nothing else, so the zero bytes above the highest non-zero
  // one are a single multiplication by a power of the prime: the same value, in two steps instead
  // of eight for the small numbers (ids, counts, points) a game state is made of.
  Hasher& u64(std::uint64_t value) {
    const int significant = (71 - std::countl_zero(value)) / 8;  // bytes up to the highest non-zero
    for (int i = 0; i < significant; ++i) {
      h_ ^= (value >> (8 * i)) & 0xFF;
      h_ *= kPrime;
    }
    if (significant < 8) h_ *= kPrimePowers[static_cast<std::size_t>(8 - significant)];
    return *this;
  }
  Hasher& i64(std::int64_t value) { return u64(static_cast<std::uint64_t>(value)); }
  // A list of unsigned integers (a game's card ids): its size, then each element as u64.
  template <typename List>
  Hasher& list(const List& items) {
    u64(items.size());
    for (const auto& item : items) u64(item);
    return *this;
  }
  std::uint64_t digest() const;

 private:
  static constexpr std::uint64_t kPrime = 0x100000001B3ULL;
  static constexpr std::array<std::uint64_t, 9> kPrimePowers = [] {
    std::array<std::uint64_t, 9> powers{1};
    for (std::size_t k = 1; k < powers.size(); ++k) powers[k] = powers[k - 1] * kPrime;
    return powers;
  }();
  std::uint64_t h_ = 0xCBF29CE484222325ULL;
};

std::uint64_t stable_hash(std::string_view data);

// Fixed-width lowercase hex, the form hashes take in JSON (64-bit integers do not survive every
// JSON reader).
std::string hash_hex(std::uint64_t hash);

}  // namespace arena
