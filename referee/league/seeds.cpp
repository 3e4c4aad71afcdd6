#include "referee/league/seeds.hpp"

#include <fmt/format.h>
#include <sodium.h>

#include <stdexcept>

#include "referee/core/rng.hpp"

namespace arena::league {

namespace {

void put_le64(unsigned char* out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<unsigned char>(v >> (8 * i));
}

void init_sodium() {
  // Thread-safe and idempotent; SipHash needs no random source, but the library asks for it first.
  static const int ok = ::sodium_init();
  if (ok < 0) throw std::runtime_error("libsodium could not be initialised");
}

}  // namespace

Result<SeedScheme> parse_seed_scheme(const std::string& name) {
  if (auto scheme = parse_enum<SeedScheme>(name)) return *scheme;
  return fail(
      fmt::format("unknown seed_scheme \"{}\" (this referee knows {}); was the league started by a newer referee?",
                  name, enum_names_text<SeedScheme>()));
}

std::uint64_t siphash24(const std::array<unsigned char, 16>& key, std::string_view message) {
  static_assert(crypto_shorthash_siphash24_KEYBYTES == 16 && crypto_shorthash_siphash24_BYTES == 8);
  init_sodium();
  std::array<unsigned char, 8> out{};
  ::crypto_shorthash_siphash24(out.data(), reinterpret_cast<const unsigned char*>(message.data()), message.size(),
                               key.data());
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | out[static_cast<std::size_t>(i)];
  return v;
}

std::uint64_t deal_seed(SeedScheme scheme, std::uint64_t league_seed, std::uint64_t deal) {
  if (scheme == SeedScheme::legacy) return derive_seed(league_seed, deal);
  std::array<unsigned char, 16> key{};
  put_le64(key.data(), league_seed);
  const std::string_view domain = "arena-k1";
  for (std::size_t i = 0; i < 8; ++i) key[8 + i] = static_cast<unsigned char>(domain[i]);
  std::array<unsigned char, 8> message{};
  put_le64(message.data(), deal);
  return siphash24(key, std::string_view(reinterpret_cast<const char*>(message.data()), message.size()));
}

}  // namespace arena::league
