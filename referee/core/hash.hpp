#pragma once
// A stable 64-bit hash: the same bytes give the same value on every machine and compiler, so
// state hashes can be stored in replays and pinned in tests. FNV-1a over bytes, with a final
// avalanche so that nearby inputs spread.

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
  Hasher& u64(std::uint64_t value);  // little-endian, whatever the host
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
  std::uint64_t h_ = 0xCBF29CE484222325ULL;
};

std::uint64_t stable_hash(std::string_view data);

// Fixed-width lowercase hex, the form hashes take in JSON (64-bit integers do not survive every
// JSON reader).
std::string hash_hex(std::uint64_t hash);

}  // namespace arena
