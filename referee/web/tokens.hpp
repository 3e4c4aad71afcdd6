#pragma once
// The web API's tokens (libsodium): 32 random bytes as 43 characters of URL-safe base64, stored
// only as their hash. A token cannot be guessed (256 bits), so a fast hash looked up by equality
// is enough (a slow password hash would cost every request tens of milliseconds and MiBs).

#include <string>
#include <string_view>

#include "referee/core/result.hpp"

namespace arena::web {

// A new random token (libsodium's generator); an error when libsodium cannot start.
Result<std::string> new_token();
// The token's BLAKE2b-256 (crypto_generichash), as 64 hex digits.
std::string token_hash(std::string_view token);
// Whether two hashes are the same, in time that does not depend on where they differ.
bool same_hash(std::string_view a, std::string_view b);

}  // namespace arena::web
