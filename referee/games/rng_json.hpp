#pragma once
// A game's Rng in its full-state JSON (for tests and tools, never sent to a bot): the four state
// words as 16-digit hex strings. rng_from_json continues the same sequence; a malformed value
// throws (nlohmann's or std::stoull's exception), which the games' state readers catch.

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "referee/core/rng.hpp"

namespace arena::games {

inline nlohmann::json rng_to_json(const Rng& rng) {
  nlohmann::json words = nlohmann::json::array();
  for (auto w : rng.state()) words.push_back(fmt::format("{:016x}", w));
  return words;
}

inline Rng rng_from_json(const nlohmann::json& words) {
  std::array<std::uint64_t, 4> state{};
  for (std::size_t i = 0; i < state.size(); ++i) state[i] = std::stoull(words.at(i).get<std::string>(), nullptr, 16);
  return Rng::from_state(state);
}

}  // namespace arena::games
