#include "referee/ladder/compress.hpp"

#include <zstd.h>

#include <memory>

namespace arena::ladder {

std::vector<std::uint8_t> compress(std::string_view data, int level) {
  std::vector<std::uint8_t> out(ZSTD_compressBound(data.size()));
  const std::size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), level);
  // With a destination of ZSTD_compressBound bytes and a valid level compression cannot fail.
  if (ZSTD_isError(n)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
  out.resize(n);
  return out;
}

Result<std::string> decompress(const std::uint8_t* data, std::size_t size, std::uint64_t max_bytes) {
  const auto too_big = [&] {
    return fail("compressed data larger than " + std::to_string(max_bytes) + " bytes once decompressed");
  };
  if (size == 0) return fail(std::string("compressed data is empty (not a zstd frame)"));
  // The first frame's declared size (when it has one) is checked before anything is allocated.
  const unsigned long long declared = ZSTD_getFrameContentSize(data, size);
  if (declared == ZSTD_CONTENTSIZE_ERROR) return fail(std::string("compressed data is not a zstd frame"));
  if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared > max_bytes) return too_big();

  std::unique_ptr<ZSTD_DStream, decltype(&ZSTD_freeDStream)> stream(ZSTD_createDStream(), &ZSTD_freeDStream);
  if (!stream) return fail(std::string("zstd: out of memory"));
  // Frames whose window exceeds the cap could not fit anyway; zstd refuses them before allocating.
  std::size_t window_log = 10;
  while (window_log < 31 && (std::uint64_t{1} << window_log) < max_bytes) ++window_log;
  ZSTD_DCtx_setParameter(stream.get(), ZSTD_d_windowLogMax, static_cast<int>(window_log));

  std::string out;
  if (declared != ZSTD_CONTENTSIZE_UNKNOWN) out.reserve(static_cast<std::size_t>(declared));
  ZSTD_inBuffer in{data, size, 0};
  std::size_t chunk = ZSTD_DStreamOutSize();
  std::size_t last = 1;  // 0 once a frame ended exactly
  std::string buffer(chunk, '\0');
  while (in.pos < in.size) {
    ZSTD_outBuffer o{buffer.data(), buffer.size(), 0};
    last = ZSTD_decompressStream(stream.get(), &o, &in);
    if (ZSTD_isError(last)) return fail(std::string("compressed data is corrupt: ") + ZSTD_getErrorName(last));
    if (out.size() + o.pos > max_bytes) return too_big();
    out.append(buffer.data(), o.pos);
    if (o.pos == 0 && last != 0 && in.pos == in.size) break;
  }
  // Flush what the decoder still holds for the last frame.
  while (last != 0) {
    ZSTD_outBuffer o{buffer.data(), buffer.size(), 0};
    last = ZSTD_decompressStream(stream.get(), &o, &in);
    if (ZSTD_isError(last)) return fail(std::string("compressed data is corrupt: ") + ZSTD_getErrorName(last));
    if (out.size() + o.pos > max_bytes) return too_big();
    out.append(buffer.data(), o.pos);
    if (o.pos == 0 && last != 0)
      return fail(std::string("compressed data is truncated (its last frame is incomplete)"));
  }
  return out;
}

}  // namespace arena::ladder
