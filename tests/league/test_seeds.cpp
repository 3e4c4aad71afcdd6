// Deal seeds of a league: SipHash-2-4 against the reference vectors, the keyed-v1 derivation
// (pinned, deterministic, unrelated between deals and between league seeds), the legacy derivation
// unchanged, scheme names, and the OS seed source.

#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "referee/core/rng.hpp"
#include "referee/league/seeds.hpp"

using namespace arena;
using league::SeedScheme;

namespace {

std::string bytes_0_to(std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s.push_back(static_cast<char>(i));
  return s;
}

}  // namespace

TEST_CASE("siphash24: the reference test vectors (key 00..0f, message 00..n-1)", "[seeds]") {
  std::array<unsigned char, 16> key{};
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<unsigned char>(i);
  // Aumasson and Bernstein, "SipHash: a fast short-input PRF", appendix A, and vectors.h of the
  // reference implementation (read as little-endian 64-bit words).
  CHECK(league::siphash24(key, "") == 0x726fdb47dd0e0e31ULL);
  CHECK(league::siphash24(key, bytes_0_to(8)) == 0x93f5f5799a932462ULL);
  CHECK(league::siphash24(key, bytes_0_to(15)) == 0xa129ca6149be45e5ULL);
  CHECK(league::siphash24(key, bytes_0_to(63)) == 0x958a324ceb064572ULL);
}

TEST_CASE("keyed-v1 deal seeds: pinned values, deterministic", "[seeds]") {
  // Computed with an independent implementation of SipHash-2-4 (checked on the vectors above),
  // key = LE64(league seed) || "arena-k1", message = LE64(deal). They move only with a new scheme.
  CHECK(league::deal_seed(SeedScheme::keyed_v1, 1, 0) == 8300343599175640593ULL);
  CHECK(league::deal_seed(SeedScheme::keyed_v1, 1, 1) == 1096275931544183386ULL);
  CHECK(league::deal_seed(SeedScheme::keyed_v1, 2026, 0) == 16636014492081073408ULL);
  CHECK(league::deal_seed(SeedScheme::keyed_v1, 2026, 123456) == 9622166222356111219ULL);
  CHECK(league::deal_seed(SeedScheme::keyed_v1, 0xFFFFFFFFFFFFFFFFULL, 7) == 1713328473421401437ULL);
  CHECK(league::deal_seed(SeedScheme::keyed_v1, 99, 5) == league::deal_seed(SeedScheme::keyed_v1, 99, 5));
}

TEST_CASE("legacy deal seeds are those of earlier versions", "[seeds]") {
  // Pinned from the derivation every league used before keyed-v1 (derive_seed of referee/core).
  CHECK(league::deal_seed(SeedScheme::legacy, 1, 0) == 13757245211066428519ULL);
  CHECK(league::deal_seed(SeedScheme::legacy, 1, 1) == 9626026794937781409ULL);
  CHECK(league::deal_seed(SeedScheme::legacy, 1, 3) == 5135510087813718029ULL);
  CHECK(league::deal_seed(SeedScheme::legacy, 2026, 0) == 8699989649721214301ULL);
  for (std::uint64_t deal = 0; deal < 100; ++deal)
    CHECK(league::deal_seed(SeedScheme::legacy, 77, deal) == derive_seed(77, deal));
}

TEST_CASE("keyed-v1: seeds of different deals and leagues are unrelated", "[seeds]") {
  const std::uint64_t seed = 0x0123456789ABCDEFULL;
  // No two equal over 10,000 deals.
  std::set<std::uint64_t> seen;
  for (std::uint64_t deal = 0; deal < 10000; ++deal) seen.insert(league::deal_seed(SeedScheme::keyed_v1, seed, deal));
  CHECK(seen.size() == 10000);
  // A league seed differing in one bit changes every deal's seed, and about half of its bits.
  double flipped = 0;
  std::uint64_t same = 0;
  for (int bit = 0; bit < 64; ++bit) {
    const std::uint64_t other = seed ^ (std::uint64_t{1} << bit);
    for (std::uint64_t deal = 0; deal < 200; ++deal) {
      const std::uint64_t a = league::deal_seed(SeedScheme::keyed_v1, seed, deal);
      const std::uint64_t b = league::deal_seed(SeedScheme::keyed_v1, other, deal);
      same += a == b ? 1 : 0;
      flipped += __builtin_popcountll(a ^ b);
    }
  }
  CHECK(same == 0);
  CHECK(flipped / (64.0 * 200.0) == Approx(32).margin(0.5));
  // Consecutive deals differ in about half their bits too (no counter shows through).
  double between = 0;
  for (std::uint64_t deal = 0; deal < 5000; ++deal) {
    between += __builtin_popcountll(league::deal_seed(SeedScheme::keyed_v1, seed, deal) ^
                                    league::deal_seed(SeedScheme::keyed_v1, seed, deal + 1));
  }
  CHECK(between / 5000.0 == Approx(32).margin(0.5));
  // And they are not the public derivation's.
  CHECK(league::deal_seed(SeedScheme::keyed_v1, seed, 3) != derive_seed(seed, 3));
}

TEST_CASE("seed scheme names round-trip, an unknown one is refused by name", "[seeds]") {
  for (SeedScheme s : {SeedScheme::legacy, SeedScheme::keyed_v1})
    CHECK(league::parse_seed_scheme(std::string(enum_name(s))).value() == s);
  CHECK(std::string(enum_name(SeedScheme::keyed_v1)) == "keyed-v1");
  const auto bad = league::parse_seed_scheme("keyed-v9");
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error(), Catch::Contains("unknown seed_scheme \"keyed-v9\"") && Catch::Contains("newer referee"));
}

TEST_CASE("os_random_u64: 64 bits from getrandom, different every time", "[seeds]") {
  std::set<std::uint64_t> seen;
  std::uint64_t any_high = 0;
  for (int i = 0; i < 64; ++i) {
    const std::uint64_t v = os_random_u64();
    seen.insert(v);
    any_high |= v >> 32;
  }
  CHECK(seen.size() == 64);
  CHECK(any_high != 0);  // the upper half is drawn too
}
