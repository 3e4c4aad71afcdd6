#pragma once
// The hello lines of a match (protocol 2 carries the game's card table in them, several KB for
// Stellar), built once per configuration and kept: a league plays thousands of matches with the
// same game, configuration, seat configurations and limits, and without the cache each would
// build the card table, copy it per seat and write it out as text again.

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "protocol/codec.hpp"
#include "referee/games/game.hpp"

namespace arena::match {

// One line per seat (seat order), each byte for byte protocol::to_line(protocol::hello(...)) with
// the seat's own card table (games::seat_card_table). Thread-safe; the most recent
// configurations are kept (a few), so memory stays flat over any number of matches.
std::shared_ptr<const std::vector<std::string>> hello_lines(const games::Game& game, const nlohmann::json& config,
                                                            const std::vector<nlohmann::json>& seat_configs,
                                                            const protocol::Limits& limits, int seats);

}  // namespace arena::match
