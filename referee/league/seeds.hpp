#pragma once
// The seed of each deal of a league, derived from the league seed.
//
// keyed-v1 (every league this referee starts): SipHash-2-4 (libsodium's
// crypto_shorthash_siphash24), a pseudo-random function keyed with the league seed, of the deal
// number. Without the league seed, one deal's seed says nothing of another's, so a bot that
// learns or guesses its own match's seed cannot compute the rest of the league.
// legacy: the public derivation of earlier versions (arena::derive_seed), kept only so that a
// league journaled by them (its league.json has no "seed_scheme") resumes with the same seeds.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "referee/core/enum_names.hpp"
#include "referee/core/result.hpp"

namespace arena::league {

enum class SeedScheme { legacy, keyed_v1 };

}  // namespace arena::league

// league.json's "seed_scheme": "legacy", "keyed-v1".
template <>
struct arena::EnumNames<arena::league::SeedScheme> {
  using E = league::SeedScheme;
  static constexpr auto table = name_table(E::legacy, "legacy", E::keyed_v1, "keyed-v1");
};

namespace arena::league {

// The scheme named `name`; an error that names the known ones.
Result<SeedScheme> parse_seed_scheme(const std::string& name);

// SipHash-2-4 of `message` under a 128-bit key, as the little-endian reading of its 8 output bytes.
std::uint64_t siphash24(const std::array<unsigned char, 16>& key, std::string_view message);

// The seed of deal `deal` of a league with seed `league_seed`.
// keyed-v1: key = league seed (8 bytes, little-endian) || "arena-k1"; message = deal (8 bytes,
// little-endian).
std::uint64_t deal_seed(SeedScheme scheme, std::uint64_t league_seed, std::uint64_t deal);

}  // namespace arena::league
