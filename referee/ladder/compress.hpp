#pragma once
// zstd frames for what the ladder stores: replays (compressed by the store, read back by it) and
// anything a database or a remote worker hands over compressed. Decompression is bounded: a frame
// that declares or produces more than the caller's cap is an error before it is an allocation
// (a decompression bomb from a database or a worker is refused, never unpacked).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "referee/core/result.hpp"

namespace arena::ladder {

// The most a stored replay may take once decompressed (a long 4-seat game is a few MB).
inline constexpr std::uint64_t kMaxReplayBytes = std::uint64_t{256} << 20;

// `data` as one zstd frame (its content size recorded in the header) at `level`.
std::vector<std::uint8_t> compress(std::string_view data, int level = 3);

// The content of one or more concatenated zstd frames, at most `max_bytes`; an error names the
// problem (not zstd, truncated, trailing bytes, larger than the cap).
Result<std::string> decompress(const std::uint8_t* data, std::size_t size, std::uint64_t max_bytes);
inline Result<std::string> decompress(const std::vector<std::uint8_t>& data, std::uint64_t max_bytes) {
  return decompress(data.data(), data.size(), max_bytes);
}

}  // namespace arena::ladder
