#pragma once
// Paying costs (docs/games/interstellar.md section 5). The engine chooses the cards by a fixed
// rule, so that a decision never needs a list of payments:
//   - a typed cost "N Energy" / "N Ammo": hand cards of that type and recharged E115s in play
//     (worth 3, wild) whose values reach N with the least excess, then the fewest E115s, then
//     the fewest cards; among equal cards the lowest ids;
//   - a generic cost (an extra action or artifact, an out-of-turn play, Teleport without an E115,
//     a bombardment): one card each, in the order Halley's Comet, then hand Water, Energy, Ammo
//     of value 1, of value 2, of value 3, then a recharged E115 in play;
//   - Secret Formula's 5: hand Water, Energy and Ammo reaching 5 with the least excess, then the
//     fewest cards.
// Hand cards paid are discarded; an E115 in play pays by being depleted (it recharges at its
// owner's next turn). Stars, primary-slot cards and depleted E115s never pay.

#include <optional>
#include <vector>

#include "referee/games/interstellar/rules.hpp"

namespace arena::interstellar {

struct Cost {
  Category typed = Category::energy;  // energy or ammo, when typed_amount > 0
  int typed_amount = 0;
  int generic = 0;  // cards, after the typed part
  int formula = 0;  // Secret Formula's face value, after the rest
};

struct Payment {
  std::vector<CardId> hand;      // hand cards to discard
  std::vector<CardId> elements;  // E115s in play to deplete
};

// The payment of `cost` from `p`'s cards by the rule above, or nothing if it cannot be paid.
std::optional<Payment> plan_payment(const Player& p, const Cost& cost);
// What a seat could pay right now, counted once (the legal actions ask many times):
// face value of its hand Energy and Ammo, the cards that may pay a generic cost, recharged E115s.
struct Purse {
  int energy = 0;
  int ammo = 0;
  int generic_cards = 0;  // hand cards that may pay a generic cost (E115s not included)
  int charged = 0;        // recharged E115s in play (wild, worth 3; each also pays a generic 1)
};
Purse purse_of(const Player& p);
// Whether plan_payment would find a payment: from the purse for a typed or a generic cost alone
// (any cards reaching the amount will do: the plan only chooses among them), else by planning.
bool can_pay(const Player& p, const Purse& purse, const Cost& cost);
inline bool can_pay(const Player& p, const Cost& cost) {
  return can_pay(p, purse_of(p), cost);
}
// Pays: discards the hand cards, depletes the E115s, records "pay" events for `seat`.
void pay(State& s, Seat seat, const Payment& payment);

}  // namespace arena::interstellar
