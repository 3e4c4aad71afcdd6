#include "referee/core/hash.hpp"

namespace arena {

Hasher& Hasher::bytes(std::string_view data) {
  for (char c : data) {
    h_ ^= static_cast<unsigned char>(c);
    h_ *= kPrime;
  }
  return *this;
}

std::uint64_t Hasher::digest() const {
  std::uint64_t z = h_;
  z = (z ^ (z >> 33)) * 0xFF51AFD7ED558CCDULL;
  z = (z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53ULL;
  return z ^ (z >> 33);
}

std::uint64_t stable_hash(std::string_view data) {
  return Hasher{}.bytes(data).digest();
}

std::string hash_hex(std::uint64_t hash) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i) {
    out[static_cast<std::size_t>(i)] = kDigits[hash & 0xF];
    hash >>= 4;
  }
  return out;
}

}  // namespace arena
