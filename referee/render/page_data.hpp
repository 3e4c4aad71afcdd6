#pragma once
// The match data as a viewer page embeds it: the JSON text gzip-compressed (zlib) and written in
// base64, which a browser reads back with atob() and DecompressionStream('gzip') from a file://
// page with no network. Base64 has no '<', '&' or quote, so nothing in the data can end its
// <script> element whatever the bots wrote. A page of a long match is a tenth of its JSON.

#include <cstddef>
#include <string>
#include <string_view>

#include "referee/core/result.hpp"

namespace arena::render {

// `text` gzip-compressed (the best compression), in base64 (RFC 4648, with padding).
std::string gzip_base64(std::string_view text);

// The inverse: base64 text (whitespace not allowed) back to the bytes that were compressed. An
// error names the problem (a character outside base64, a wrong length, a gzip stream that is
// broken, truncated or inflates past `limit` bytes).
Result<std::string> gunzip_base64(std::string_view encoded, std::size_t limit);

}  // namespace arena::render
