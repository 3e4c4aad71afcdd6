#include "referee/games/interstellar/pay.hpp"

#include <algorithm>
#include <array>
#include <bitset>
#include <tuple>

namespace arena::interstellar {

namespace {

// Which cards a payment being planned has taken already (a seat holds at most 2 x kMaxDeck cards).
struct Pool {
  const Player& p;
  std::bitset<2 * kMaxDeck> hand_taken;
  std::bitset<2 * kMaxDeck> element_taken;
  explicit Pool(const Player& player) : p(player) {}
};

// Indices into a seat's hand or E115s, without allocating (a seat holds at most 2 x kMaxDeck cards).
struct Indices {
  std::array<std::uint8_t, 2 * kMaxDeck> at{};
  std::size_t n = 0;
  void push_back(std::size_t i) { at[n++] = static_cast<std::uint8_t>(i); }
  std::size_t size() const { return n; }
  std::size_t operator[](std::size_t i) const { return at[i]; }
};

bool counts_for(Kind k, bool formula, Category typed) {
  const Category c = category(k);
  if (formula) return c == Category::water || c == Category::energy || c == Category::ammo;
  return c == typed;
}

// Cards reaching `amount` by face value with the least excess, then the fewest E115s, then the
// fewest cards. `formula`: hand Water, Energy and Ammo, no E115; else hand cards of `typed` and
// recharged E115s.
bool take_value(Pool& pool, int amount, bool formula, Category typed, Payment& out) {
  if (amount <= 0) return true;
  std::array<Indices, 4> by_value;  // hand indices by face value 1-3, ascending id
  for (std::size_t i = 0; i < pool.p.hand.size(); ++i) {
    const Kind k = pool.p.hand[i].kind;
    if (!pool.hand_taken[i] && counts_for(k, formula, typed)) by_value[static_cast<std::size_t>(value(k))].push_back(i);
  }
  Indices elements;
  if (!formula) {
    for (std::size_t i = 0; i < pool.p.elements.size(); ++i) {
      if (!pool.element_taken[i] && !pool.p.elements[i].depleted) elements.push_back(i);
    }
  }
  const int c1 = static_cast<int>(by_value[1].size()), c2 = static_cast<int>(by_value[2].size());
  const int c3 = static_cast<int>(by_value[3].size()), ce = static_cast<int>(elements.size());
  bool found = false;
  std::tuple<int, int, int> best_key{0, 0, 0};
  std::array<int, 4> best{};  // e, a3, a2, a1
  for (int e = 0; e <= std::min(ce, (amount + 2) / 3); ++e) {
    for (int a3 = 0; a3 <= std::min(c3, (amount + 2) / 3); ++a3) {
      for (int a2 = 0; a2 <= std::min(c2, (amount + 1) / 2); ++a2) {
        const int a1 = std::max(0, amount - 3 * e - 3 * a3 - 2 * a2);
        if (a1 > c1) continue;
        const int excess = 3 * e + 3 * a3 + 2 * a2 + a1 - amount;
        const std::tuple<int, int, int> key{excess, e, e + a3 + a2 + a1};
        if (!found || key < best_key) {
          found = true;
          best_key = key;
          best = {e, a3, a2, a1};
        }
      }
    }
  }
  if (!found) return false;
  for (int i = 0; i < best[0]; ++i) {
    pool.element_taken[elements[static_cast<std::size_t>(i)]] = true;
    out.elements.push_back(pool.p.elements[elements[static_cast<std::size_t>(i)]].card.id);
  }
  const std::array<int, 4> per_value{0, best[3], best[2], best[1]};
  for (std::size_t v = 1; v <= 3; ++v) {
    for (int i = 0; i < per_value[v]; ++i) {
      const std::size_t h = by_value[v][static_cast<std::size_t>(i)];
      pool.hand_taken[h] = true;
      out.hand.push_back(pool.p.hand[h].id);
    }
  }
  return true;
}

// The generic order: Halley's Comet, then hand Water, Energy, Ammo of value 1, 2, 3.
int generic_rank(Kind k) {
  switch (category(k)) {
    case Category::halley:
      return 0;
    case Category::water:
      return 3 * value(k) - 2;
    case Category::energy:
      return 3 * value(k) - 1;
    case Category::ammo:
      return 3 * value(k);
    default:
      return -1;
  }
}

bool take_generic(Pool& pool, int cards, Payment& out) {
  for (int n = 0; n < cards; ++n) {
    std::size_t pick = pool.p.hand.size();
    int pick_rank = 100;
    for (std::size_t i = 0; i < pool.p.hand.size(); ++i) {
      const int r = generic_rank(pool.p.hand[i].kind);
      if (r >= 0 && !pool.hand_taken[i] && r < pick_rank) {
        pick = i;
        pick_rank = r;
      }
    }
    if (pick < pool.p.hand.size()) {
      pool.hand_taken[pick] = true;
      out.hand.push_back(pool.p.hand[pick].id);
      continue;
    }
    bool paid = false;
    for (std::size_t i = 0; i < pool.p.elements.size() && !paid; ++i) {
      if (!pool.element_taken[i] && !pool.p.elements[i].depleted) {
        pool.element_taken[i] = true;
        out.elements.push_back(pool.p.elements[i].card.id);
        paid = true;
      }
    }
    if (!paid) return false;
  }
  return true;
}

}  // namespace

Purse purse_of(const Player& p) {
  Purse out;
  for (const Card& c : p.hand) {
    switch (category(c.kind)) {
      case Category::energy:
        out.energy += value(c.kind), ++out.generic_cards;
        break;
      case Category::ammo:
        out.ammo += value(c.kind), ++out.generic_cards;
        break;
      case Category::water:
      case Category::halley:
        ++out.generic_cards;
        break;
      default:
        break;
    }
  }
  for (const Element& e : p.elements) out.charged += e.depleted ? 0 : 1;
  return out;
}

bool can_pay(const Player& p, const Purse& purse, const Cost& cost) {
  if (cost.formula == 0 && cost.generic == 0) {
    const int worth = cost.typed == Category::ammo ? purse.ammo : purse.energy;
    return cost.typed_amount <= 0 || worth + 3 * purse.charged >= cost.typed_amount;
  }
  if (cost.formula == 0 && cost.typed_amount <= 0) return purse.generic_cards + purse.charged >= cost.generic;
  return plan_payment(p, cost).has_value();
}

std::optional<Payment> plan_payment(const Player& p, const Cost& cost) {
  Pool pool(p);
  Payment out;
  if (!take_value(pool, cost.typed_amount, false, cost.typed, out)) return std::nullopt;
  if (!take_generic(pool, cost.generic, out)) return std::nullopt;
  if (!take_value(pool, cost.formula, true, cost.typed, out)) return std::nullopt;
  return out;
}

void pay(State& s, Seat seat, const Payment& payment) {
  Player& p = s.players[static_cast<std::size_t>(seat)];
  for (CardId id : payment.hand) {
    auto it = std::find_if(p.hand.begin(), p.hand.end(), [&](const Card& c) { return c.id == id; });
    const Card card = *it;
    p.hand.erase(it);
    p.discard.push_back(card);
    s.events.push_back(Event{.kind = EventKind::pay, .seat = static_cast<std::int8_t>(seat), .card = card});
  }
  for (CardId id : payment.elements) {
    auto it = std::find_if(p.elements.begin(), p.elements.end(), [&](const Element& e) { return e.card.id == id; });
    it->depleted = true;
    s.events.push_back(
        Event{.kind = EventKind::pay, .seat = static_cast<std::int8_t>(seat), .extra = 1, .card = it->card});
  }
}

}  // namespace arena::interstellar
