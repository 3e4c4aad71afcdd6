// The web API's tokens (tokens.hpp).
#include "referee/web/tokens.hpp"

#include <sodium.h>

#include <array>

namespace arena::web {

Result<std::string> new_token() {
  if (::sodium_init() < 0) return fail(std::string("libsodium could not start (no source of random numbers)"));
  std::array<unsigned char, 32> bytes{};
  ::randombytes_buf(bytes.data(), bytes.size());
  std::string out(sodium_base64_ENCODED_LEN(32, sodium_base64_VARIANT_URLSAFE_NO_PADDING), '\0');
  ::sodium_bin2base64(out.data(), out.size(), bytes.data(), bytes.size(), sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  out.resize(out.find('\0'));
  ::sodium_memzero(bytes.data(), bytes.size());
  return out;
}

std::string token_hash(std::string_view token) {
  std::array<unsigned char, crypto_generichash_BYTES> hash{};
  ::crypto_generichash(hash.data(), hash.size(), reinterpret_cast<const unsigned char*>(token.data()), token.size(),
                       nullptr, 0);
  std::string hex(hash.size() * 2 + 1, '\0');
  ::sodium_bin2hex(hex.data(), hex.size(), hash.data(), hash.size());
  hex.pop_back();
  return hex;
}

bool same_hash(std::string_view a, std::string_view b) {
  return a.size() == b.size() && ::sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace arena::web
