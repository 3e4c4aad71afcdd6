#include "referee/games/interstellar/text.hpp"

#include <fmt/format.h>

#include "referee/games/interstellar/json.hpp"

namespace arena::interstellar {

namespace {

std::string list(const std::vector<Card>& cards) {
  std::string out;
  for (const Card& c : cards) out += fmt::format("{}{}#{}", out.empty() ? "" : ", ", info(c.kind).name, c.id);
  return out.empty() ? "-" : out;
}

std::string place(const Player& p, const Loc& at) {
  switch (at.zone) {
    case Zone::orbit:
      return "Orbit";
    case Zone::battlefield:
      return "Battlefield";
    case Zone::none:
      return "-";
    case Zone::planet:
      break;
  }
  const Planet* pl = find_planet(p, at.planet);
  return pl == nullptr ? fmt::format("planet #{}", at.planet)
                       : fmt::format("{}#{}", info(pl->card.kind).name, at.planet);
}

}  // namespace

std::string describe(const State& s) {
  std::string out = fmt::format("turn {} of at most {}; phase {}; seat {} on turn; start player seat {}\n", s.turn,
                                s.config.max_turns, enum_name(s.phase), s.on_turn, s.start_player);
  if (s.phase == Phase::main || s.phase == Phase::reaction) {
    out += fmt::format("this turn: {} moves, {} actions, {} artifacts, {} ship and {} character attacks{}\n", s.moves,
                       s.actions, s.artifacts, s.ship_attacks, s.character_attacks,
                       s.played_card ? ", a card played" : "");
  }
  for (int seat = 0; seat < kSeats; ++seat) {
    const Player& p = s.players[static_cast<std::size_t>(seat)];
    const CharacterInfo& ch = info(p.character);
    out += fmt::format("seat {}: {} {}/{} HP at {}; {} {}/{} HP at {}\n", seat, ch.name, p.hp, ch.hp,
                       place(p, p.char_at), ch.ship_name, p.ship_hp, ch.ship_hp, place(p, p.ship_at));
    out += fmt::format("  primary: water {}; stars {} (total {})\n", list(p.water), list(p.stars), star_total(p));
    std::string elements;
    for (const Element& e : p.elements) {
      elements += fmt::format("{}{}#{}{}", elements.empty() ? "" : ", ", info(e.card.kind).name, e.card.id,
                              e.depleted ? " (depleted)" : "");
    }
    out += fmt::format("  E115 in play: {}\n", elements.empty() ? "-" : elements);
    std::string planets;
    for (const Planet& pl : p.planets) {
      planets += fmt::format("{}{}#{} {}R{}{}", planets.empty() ? "" : ", ", info(pl.card.kind).name, pl.card.id,
                             value(pl.card.kind), pl.harvest.empty() ? "" : fmt::format(" [{}]", list(pl.harvest)),
                             pl.depleted_turn >= 0 ? " (depleted)" : "");
    }
    out += fmt::format("  planets: {} ({}R)\n", planets.empty() ? "-" : planets, planet_total(p));
    std::string gates;
    for (const Gate& g : p.gates)
      gates += fmt::format("{}Gate#{} at {}", gates.empty() ? "" : ", ", g.card.id, place(p, g.at));
    out += fmt::format("  gates: {}; escape pods: {}; reinforcements: {}\n", gates.empty() ? "-" : gates, list(p.pods),
                       p.reinforcements.id == kNoCard ? "-" : fmt::format("{} HP", p.reinforcements_hp));
    out += fmt::format("  hand: {}\n", list(p.hand));
    out += fmt::format("  decks: {} Resource, {} Main; discard {}; void {}\n", p.resource_deck.size(),
                       p.main_deck.size(), p.discard.size(), p.voided.size());
  }
  if (is_over(s)) {
    out += fmt::format("game over: {}; {}\n", enum_name(s.end),
                       s.winner < 0 ? std::string("a draw") : fmt::format("seat {} wins", s.winner));
  }
  return out;
}

}  // namespace arena::interstellar
