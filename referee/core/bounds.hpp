#pragma once
// The allowed range of every number a user gives the referee: the limits, sizes and counts of the
// `play`, `league` and `validate` flags and of league files (docs/cli.md, "Ranges"). A value
// outside is refused with its name, its value and the range (exit code 2), never wrapped,
// truncated or overflowed. The time ranges keep every scaled deadline far inside std::chrono.

#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>

namespace arena::bounds {

template <typename T>
struct Range {
  T lo;
  T hi;
  const char* note = "";                                             // said after the range, e.g. "0 = unlimited"
  constexpr bool contains(T v) const { return v >= lo && v <= hi; }  // false for NaN
};

// Times in milliseconds.
inline constexpr Range<std::int64_t> kInitMs{1, 600'000};         // 10 minutes
inline constexpr Range<std::int64_t> kDecisionMs{1, 86'400'000};  // 24 hours
inline constexpr Range<std::int64_t> kTimeBankMs{0, 86'400'000};
inline constexpr Range<double> kTimeScale{0.01, 1000.0};
inline constexpr Range<std::int64_t> kGraceMs{0, 60'000};
// The longest scaled time limit (24 h x 1000, about 2.7 years): a deadline of now + twice this
// (decision and bank) fits std::chrono's nanoseconds (292 years) with room to spare.
inline constexpr std::int64_t kMaxScaledMs = kDecisionMs.hi * 1000;

// Sizes and counts.
inline constexpr Range<std::uint64_t> kMaxLineBytes{64, 16 << 20};  // 16 MiB
inline constexpr Range<std::uint64_t> kMaxDebugBytes{0, 16 << 20};
inline constexpr Range<std::uint64_t> kDeals{1, 10'000'000};
inline constexpr std::uint64_t kMaxMatches = 100'000'000;               // a league's whole schedule
inline constexpr Range<std::uint64_t> kRatingInterval{0, kMaxMatches};  // league --rating-interval (0: off)
inline constexpr Range<std::int64_t> kConcurrency{1, 1024};
inline constexpr Range<std::int64_t> kSeats{1, 64};
inline constexpr Range<double> kElo{-1000.0, 1000.0};
inline constexpr Range<double> kProbability{0.0, 1.0};
inline constexpr Range<std::int64_t> kValidateGames{1, 1000};
inline constexpr Range<std::uint64_t> kSeed{0, UINT64_MAX};  // any, but never a wrapped "-1"

// The sandbox (bots::SandboxLimits).
inline constexpr Range<std::uint64_t> kCpuSeconds{1, 604'800};                       // a week
inline constexpr Range<std::uint64_t> kAddressSpaceMb{0, 1 << 20, "0 = unlimited"};  // up to 1 TiB
inline constexpr Range<std::uint64_t> kMemoryMb{1, 1 << 20};
inline constexpr Range<std::uint64_t> kFileSizeMb{1, 1 << 20};
inline constexpr Range<std::uint64_t> kScratchMb{1, 1 << 16};
inline constexpr Range<std::uint64_t> kOpenFiles{16, 1 << 20};
inline constexpr Range<std::uint64_t> kProcesses{1, 1 << 20};

// "1..86400000", "0.01..1000", "0..1048576 (0 = unlimited)".
template <typename T>
std::string text(const Range<T>& r) {
  std::ostringstream out;
  out << r.lo << ".." << r.hi;
  if (*r.note != '\0') out << " (" << r.note << ")";
  return out.str();
}

// "<what> <value> is not a whole number in 1..86400000" ("not a number in" for real ranges):
// said of a value out of range and of one of the wrong kind alike.
template <typename T>
std::string out_of_range(std::string_view what, std::string_view value, const Range<T>& r) {
  std::string s(what);
  if (!s.empty()) s += ' ';
  // The value as given, cut: a 300-digit number is no easier to read than its first digits.
  constexpr std::size_t kShown = 24;
  s += value.substr(0, kShown);
  if (value.size() > kShown) s += "...";
  s += std::is_floating_point_v<T> ? " is not a number in " : " is not a whole number in ";
  return s + text(r);
}

}  // namespace arena::bounds
