#include "referee/render/page_data.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <new>
#include <vector>

namespace arena::render {

namespace {

constexpr std::string_view kBase64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr int kGzipWindow = 15 + 16;  // zlib's windowBits for a gzip header and trailer

std::string base64(const std::string& bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t v = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16 |
                            static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8 |
                            static_cast<unsigned char>(bytes[i + 2]);
    for (int shift = 18; shift >= 0; shift -= 6) out += kBase64[(v >> shift) & 63];
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    std::uint32_t v = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
    if (rest == 2) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
    out += kBase64[(v >> 18) & 63];
    out += kBase64[(v >> 12) & 63];
    out += rest == 2 ? kBase64[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

Result<std::string> unbase64(std::string_view text) {
  if (text.size() % 4 != 0) return fail(fmt::format("base64 text of {} characters (not a multiple of 4)", text.size()));
  std::array<int, 256> value{};
  value.fill(-1);
  for (std::size_t k = 0; k < kBase64.size(); ++k) value[static_cast<unsigned char>(kBase64[k])] = static_cast<int>(k);
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    std::uint32_t v = 0;
    int pad = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const char c = text[i + k];
      if (c == '=' && last && k >= 2 && (k == 3 || text[i + 3] == '=')) {
        ++pad;
        v <<= 6;
        continue;
      }
      const int d = value[static_cast<unsigned char>(c)];
      if (d < 0) return fail(fmt::format("character {} of the base64 text is not base64", i + k));
      v = v << 6 | static_cast<std::uint32_t>(d);
    }
    out += static_cast<char>((v >> 16) & 255);
    if (pad < 2) out += static_cast<char>((v >> 8) & 255);
    if (pad < 1) out += static_cast<char>(v & 255);
  }
  return out;
}

}  // namespace

std::string gzip_base64(std::string_view text) {
  z_stream z{};
  // Only a wrong argument or no memory fail here: both are the program's bugs, not the data's.
  if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, kGzipWindow, 9, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::bad_alloc();
  // zlib counts in 32 bits: the text goes in by pieces of at most 1 GiB, the output comes in chunks.
  constexpr std::size_t kPiece = std::size_t{1} << 30;
  std::string packed;
  std::vector<char> chunk(1 << 16);
  std::size_t fed = 0;
  int status = Z_OK;
  while (status != Z_STREAM_END) {
    if (z.avail_in == 0 && fed < text.size()) {
      const std::size_t piece = std::min(kPiece, text.size() - fed);
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data() + fed));
      z.avail_in = static_cast<uInt>(piece);
      fed += piece;
    }
    z.next_out = reinterpret_cast<Bytef*>(chunk.data());
    z.avail_out = static_cast<uInt>(chunk.size());
    status = deflate(&z, fed == text.size() ? Z_FINISH : Z_NO_FLUSH);
    if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR) {
      deflateEnd(&z);
      throw std::bad_alloc();
    }
    packed.append(chunk.data(), chunk.size() - z.avail_out);
  }
  deflateEnd(&z);
  return base64(packed);
}

Result<std::string> gunzip_base64(std::string_view encoded, std::size_t limit) {
  auto packed = unbase64(encoded);
  if (!packed) return fail(packed.error());
  if (packed->size() > std::numeric_limits<uInt>::max()) return fail(std::string("the compressed data is over 4 GiB"));
  z_stream z{};
  if (inflateInit2(&z, kGzipWindow) != Z_OK) return fail(std::string("zlib could not start inflating"));
  z.next_in = reinterpret_cast<Bytef*>(packed->data());
  z.avail_in = static_cast<uInt>(packed->size());
  std::string out;
  std::vector<char> chunk(1 << 16);
  int status = Z_OK;
  while (status == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(chunk.data());
    z.avail_out = static_cast<uInt>(chunk.size());
    status = inflate(&z, Z_NO_FLUSH);
    out.append(chunk.data(), chunk.size() - z.avail_out);
    if (out.size() > limit) {
      inflateEnd(&z);
      return fail(fmt::format("the compressed data inflates past {} bytes", limit));
    }
    if (status == Z_BUF_ERROR && z.avail_in == 0) break;
  }
  const bool whole = status == Z_STREAM_END && z.avail_in == 0;
  const std::string why = z.msg != nullptr ? z.msg : status == Z_STREAM_END ? "bytes after its end" : "truncated";
  inflateEnd(&z);
  if (!whole) return fail(fmt::format("the gzip data is broken ({})", why));
  return out;
}

}  // namespace arena::render
