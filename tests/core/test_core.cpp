#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <numeric>
#include <string>
#include <vector>

#include "referee/core/enum_names.hpp"
#include "referee/core/hash.hpp"
#include "referee/core/result.hpp"
#include "referee/core/rng.hpp"

using namespace arena;

TEST_CASE("Rng: a seed gives a fixed sequence on every machine") {
  Rng rng(42);
  // Pinned values: a change here changes every game of every replay.
  const std::array<std::uint64_t, 3> expected = {rng.next(), rng.next(), rng.next()};
  Rng again(42);
  for (auto v : expected) CHECK(again.next() == v);
  Rng zero(0);
  CHECK(zero.next() == 0x99EC5F36CB75F2B4ULL);
  CHECK(Rng(1) != Rng(2));
}

TEST_CASE("Rng: below() stays in range and is roughly uniform") {
  Rng rng(7);
  std::array<int, 6> counts{};
  for (int i = 0; i < 60000; ++i) {
    const auto v = rng.below(6);
    REQUIRE(v < 6);
    ++counts[v];
  }
  for (int c : counts) CHECK(std::abs(c - 10000) < 500);
  CHECK(rng.below(1) == 0);
}

TEST_CASE("Rng: shuffle is a permutation, deterministic per seed") {
  std::vector<int> a(52);
  std::iota(a.begin(), a.end(), 0);
  std::vector<int> b = a;
  Rng r1(99);
  Rng r2(99);
  r1.shuffle(a);
  r2.shuffle(b);
  CHECK(a == b);
  std::vector<int> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 52; ++i) CHECK(sorted[static_cast<std::size_t>(i)] == i);
  CHECK(a != sorted);
}

TEST_CASE("Rng: the state round-trips") {
  Rng rng(5);
  rng.next();
  Rng copy = Rng::from_state(rng.state());
  CHECK(copy == rng);
  CHECK(copy.next() == rng.next());
}

TEST_CASE("derive_seed: distinct children, stable values") {
  CHECK(derive_seed(1, 0) != derive_seed(1, 1));
  CHECK(derive_seed(1, 0) != derive_seed(2, 0));
  CHECK(derive_seed(1, 5) == derive_seed(1, 5));
}

TEST_CASE("stable_hash: pinned values and hex form") {
  CHECK(stable_hash("") == stable_hash(""));
  CHECK(stable_hash("a") != stable_hash("b"));
  CHECK(Hasher{}.u64(1).digest() != Hasher{}.u64(2).digest());
  CHECK(hash_hex(0x1234) == "0000000000001234");
  CHECK(hash_hex(stable_hash("stellar")).size() == 16);
  CHECK(hash_hex(stable_hash("stellar")) == "2497fe696a558513");
}

// Hasher::u64 skips the zero bytes above a value's highest non-zero byte: every value must still
// hash as its 8 little-endian bytes do, one at a time, as the replays already written record it.
TEST_CASE("Hasher: u64 hashes a value as its 8 little-endian bytes") {
  const auto as_bytes = [](std::uint64_t value) {
    std::string le(8, '\0');
    for (std::size_t i = 0; i < 8; ++i) le[i] = static_cast<char>((value >> (8 * i)) & 0xFF);
    return Hasher{}.bytes("prefix").bytes(le).digest();
  };
  std::vector<std::uint64_t> values = {0,
                                       1,
                                       0xFF,
                                       0x100,
                                       0xFFFF,
                                       0x10000,
                                       0x8000000000000000ULL,
                                       ~0ULL,
                                       static_cast<std::uint64_t>(-1LL),
                                       static_cast<std::uint64_t>(-2LL)};
  for (int bit = 0; bit < 64; ++bit) {
    values.push_back(1ULL << bit);
    values.push_back((1ULL << bit) - 1);
  }
  Rng rng(7);
  for (int i = 0; i < 1000; ++i) values.push_back(rng.next() >> rng.below(64));
  for (const std::uint64_t v : values) {
    CAPTURE(v);
    REQUIRE(Hasher{}.bytes("prefix").u64(v).digest() == as_bytes(v));
  }
}

TEST_CASE("Result: value or error") {
  Result<int> ok = 3;
  REQUIRE(ok.ok());
  CHECK(*ok == 3);
  Result<int> bad = fail(std::string("broken"));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error() == "broken");
  Status fine;
  CHECK(fine.ok());
  Status not_fine = fail(std::string("no"));
  CHECK(not_fine.error() == "no");
}

namespace {
enum class Colour { red, dark_green, blue };
enum class Sparse { low = 0, high = 5, middle = 2 };  // a table out of declaration order, with a gap
}  // namespace

template <>
struct arena::EnumNames<Colour> {
  using E = Colour;
  static constexpr auto table = name_table(E::red, "red", E::dark_green, "dark-green", E::blue, "blue");
};

template <>
struct arena::EnumNames<Sparse> {
  using E = Sparse;
  static constexpr auto table = name_table(E::middle, "middle", E::low, "low", E::high, "high");
};

TEST_CASE("enum names: a table in any order, with gaps in the values, names every value", "[core][enum]") {
  CHECK(arena::enum_name(Sparse::low) == "low");        // row 0 holds another value: searched
  CHECK(arena::enum_name(Sparse::middle) == "middle");  // row 2 holds another value: searched
  CHECK(arena::enum_name(Sparse::high) == "high");      // beyond the table's rows: searched
  CHECK(arena::enum_name(static_cast<Sparse>(1)) == "unknown");
  CHECK(arena::parse_enum<Sparse>("high") == Sparse::high);
  CHECK(arena::enum_names_text<Sparse>() == "\"middle\", \"low\" or \"high\"");
}

TEST_CASE("enum names: one table gives the name, the parse and the list for errors", "[core][enum]") {
  for (Colour c : {Colour::red, Colour::dark_green, Colour::blue})
    CHECK(arena::parse_enum<Colour>(arena::enum_name(c)) == c);
  CHECK(arena::enum_name(Colour::dark_green) == "dark-green");
  CHECK_FALSE(arena::parse_enum<Colour>("dark_green").has_value());
  CHECK_FALSE(arena::parse_enum<Colour>("").has_value());
  CHECK(arena::enum_name(static_cast<Colour>(7)) == "unknown");
  CHECK(arena::enum_names_text<Colour>() == "\"red\", \"dark-green\" or \"blue\"");
  static_assert(arena::enum_name(Colour::blue) == "blue");
}
