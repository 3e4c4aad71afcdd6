#include "referee/games/stellar/cards.hpp"

#include <fmt/format.h>

#include <array>
#include <nlohmann/json.hpp>

#include "referee/core/hash.hpp"

namespace arena::stellar {

namespace {

// What people read for a type (the JSON's names are EnumNames<CardType>'s).
constexpr std::array<std::pair<CardType, std::string_view>, 6> kTypeLabels{{{CardType::planet, "Planet"},
                                                                            {CardType::moon, "Moon"},
                                                                            {CardType::asteroid, "Asteroid"},
                                                                            {CardType::cloud, "Cloud"},
                                                                            {CardType::black_hole, "Black Hole"},
                                                                            {CardType::satellite, "Satellite"}}};
// Planets carry a name in solar order (cosmetic, docs/games/stellar.md).
constexpr std::array<std::string_view, 7> kPlanetNames = {"",        "Mercury", "Venus", "Mars",
                                                          "Jupiter", "Saturn",  "Planet"};

// Stars by number, identical for every type (docs/games/stellar.md, inferred list): 1->3 2->2 3->2 4->1
// 5->1 6/0->0.
constexpr std::array<std::uint8_t, 7> kStarsByNumber = {0, 3, 2, 2, 1, 1, 0};

// A deck needs 4 starters placed + 44 cards played in 22 turns + 4 held at the end + 5 in the row.
constexpr std::size_t kMinDeckSize = 57;
constexpr std::size_t kMaxDeckSize = 255;

std::string default_name(CardType type, int number) {
  std::string num = number == kSixZero ? "6/0" : std::to_string(number);
  if (type == CardType::planet && number != kSixZero) {
    return fmt::format("{} {}", kPlanetNames[static_cast<std::size_t>(number)], num);
  }
  return fmt::format("{} {}", type_label(type), num);
}

Deck build_standard_deck() {
  Deck deck;
  // Per type: 1,1,2,2,3,3,4,4,5,5,6/0; the second 3 is the type's starter.
  for (int t = 0; t < kTypedKinds; ++t) {
    const auto type = static_cast<CardType>(t);
    for (int number : {1, 1, 2, 2, 3, 3, 4, 4, 5, 5, kSixZero}) {
      Card card;
      card.type = type;
      card.number = static_cast<std::uint8_t>(number);
      card.stars = kStarsByNumber[static_cast<std::size_t>(number)];
      card.name = default_name(type, number);
      deck.push_back(card);
    }
    deck[deck.size() - 6].starter = true;  // the second 3
  }
  for (int number = 1; number <= 5; ++number) {
    deck.push_back(Card{CardType::satellite, static_cast<std::uint8_t>(number), 0, false,
                        default_name(CardType::satellite, number)});
  }
  return deck;
}

}  // namespace

std::string_view type_label(CardType type) {
  return table_lookup(kTypeLabels, type, std::string_view("?"));
}

Result<CardType> parse_type(std::string_view name) {
  if (const auto type = parse_enum<CardType>(name)) return *type;
  return fail(fmt::format("unknown card type \"{}\" (expected {})", name, enum_names_text<CardType>()));
}

const CardTable& standard_table() {
  static const CardTable table(build_standard_deck());
  return table;
}

const Deck& standard_deck() {
  return standard_table().cards();
}

CardTable::CardTable() : shared_(standard_table().shared_) {}

CardTable::CardTable(Deck cards) {
  Shared shared{std::move(cards), {}};
  for (std::uint64_t head = 0; head < shared.hash_prefix.size(); ++head) {
    Hasher h;
    h.u64(shared.cards.size()).u64(head);
    for (const Card& c : shared.cards) {
      h.u64(static_cast<std::uint64_t>(c.type)).u64(c.number).u64(c.stars).u64(c.starter);
    }
    shared.hash_prefix[head] = h.state();
  }
  shared_ = std::make_shared<const Shared>(std::move(shared));
}

namespace {

Result<Card> parse_card(const nlohmann::json& j) {
  if (!j.is_object()) return fail(std::string("is not an object"));
  for (const auto& [key, value] : j.items()) {
    if (key != "type" && key != "number" && key != "stars" && key != "starter" && key != "name") {
      return fail(fmt::format("has an unknown field \"{}\"", key));
    }
  }
  Card card;
  auto type_it = j.find("type");
  if (type_it == j.end() || !type_it->is_string()) return fail(std::string("has no \"type\" string"));
  auto type = parse_type(type_it->get<std::string>());
  if (!type) return fail(type.error());
  card.type = *type;

  auto num_it = j.find("number");
  if (num_it == j.end()) return fail(std::string("has no \"number\""));
  if (num_it->is_string() && num_it->get<std::string>() == "6/0") {
    if (card.satellite()) return fail(std::string("is a satellite with number 6/0 (satellites are 1-5)"));
    card.number = kSixZero;
  } else if (num_it->is_number_integer() && num_it->get<std::int64_t>() >= 1 && num_it->get<std::int64_t>() <= 5) {
    card.number = static_cast<std::uint8_t>(num_it->get<std::int64_t>());
  } else {
    return fail(fmt::format("has number {} (expected 1-5 or \"6/0\")", num_it->dump()));
  }

  auto stars_it = j.find("stars");
  if (stars_it == j.end() || !stars_it->is_number_integer() || stars_it->get<std::int64_t>() < 0 ||
      stars_it->get<std::int64_t>() > 3) {
    return fail(
        fmt::format("has stars {} (expected an integer 0-3)", stars_it == j.end() ? "missing" : stars_it->dump()));
  }
  card.stars = static_cast<std::uint8_t>(stars_it->get<std::int64_t>());
  if (card.satellite() && card.stars != 0) return fail(std::string("is a satellite with stars (satellites have none)"));

  if (auto it = j.find("starter"); it != j.end()) {
    if (!it->is_boolean()) return fail(std::string("has a \"starter\" that is not true/false"));
    card.starter = it->get<bool>();
  }
  if (card.starter && card.satellite()) return fail(std::string("is a satellite marked as starter"));
  if (card.starter && card.six_zero()) return fail(std::string("is a 6/0 marked as starter"));

  if (auto it = j.find("name"); it != j.end()) {
    if (!it->is_string() || it->get<std::string>().empty() || it->get<std::string>().size() > 40) {
      return fail(std::string("has a \"name\" that is not a string of 1-40 characters"));
    }
    card.name = it->get<std::string>();
  } else {
    card.name = default_name(card.type, card.number);
  }
  return card;
}

// " (Moon 4)" when a card in a list gives a usable name, for the messages; "" otherwise.
std::string given_name(const nlohmann::json& j) {
  if (!j.is_object()) return "";
  auto it = j.find("name");
  if (it == j.end() || !it->is_string() || it->get<std::string>().empty() || it->get<std::string>().size() > 40)
    return "";
  return " (" + it->get<std::string>() + ")";
}

Status check_size(std::size_t size) {
  if (size < kMinDeckSize || size > kMaxDeckSize) {
    return fail(
        fmt::format("deck list: {} cards; a deck needs {} to {} (4 starters placed, 44 "
                    "played, 4 held at the end, 5 in the row)",
                    size, kMinDeckSize, kMaxDeckSize));
  }
  return {};
}

Status check_starters(const std::array<int, kTypedKinds>& starters) {
  for (int t = 0; t < kTypedKinds; ++t) {
    int n = starters[static_cast<std::size_t>(t)];
    if (n != 1) {
      return fail(fmt::format("deck list: {} starter cards of type {} (exactly one per type is needed)", n,
                              enum_name(static_cast<CardType>(t))));
    }
  }
  return {};
}

// parse_card's rules for a Card built in code, with its messages.
Status check_card(const Card& card) {
  if (static_cast<int>(card.type) > static_cast<int>(CardType::satellite)) {
    return fail(fmt::format("has type {} (not a card type)", static_cast<int>(card.type)));
  }
  if (card.satellite() && card.six_zero())
    return fail(std::string("is a satellite with number 6/0 (satellites are 1-5)"));
  if (card.number < 1 || (card.number > 5 && card.number != kSixZero)) {
    return fail(fmt::format("has number {} (expected 1-5 or \"6/0\")", card.number));
  }
  if (card.stars > 3) return fail(fmt::format("has stars {} (expected an integer 0-3)", card.stars));
  if (card.satellite() && card.stars != 0) return fail(std::string("is a satellite with stars (satellites have none)"));
  if (card.starter && card.satellite()) return fail(std::string("is a satellite marked as starter"));
  if (card.starter && card.six_zero()) return fail(std::string("is a 6/0 marked as starter"));
  if (card.name.empty() || card.name.size() > 40) {
    return fail(std::string("has a \"name\" that is not a string of 1-40 characters"));
  }
  return {};
}

}  // namespace

Result<Deck> parse_deck(const nlohmann::json& list) {
  if (!list.is_array()) return fail(std::string("deck list: expected a JSON array of cards"));
  if (auto st = check_size(list.size()); !st) return fail(st.error());
  Deck deck;
  std::array<int, kTypedKinds> starters{};
  for (std::size_t i = 0; i < list.size(); ++i) {
    auto card = parse_card(list[i]);
    if (!card) return fail(fmt::format("deck list: card {}{} {}", i, given_name(list[i]), card.error()));
    if (card->starter) ++starters[static_cast<std::size_t>(card->type)];
    deck.push_back(std::move(card).value());
  }
  if (auto st = check_starters(starters); !st) return fail(st.error());
  return deck;
}

Status validate_deck(const Deck& deck) {
  if (auto st = check_size(deck.size()); !st) return st;
  std::array<int, kTypedKinds> starters{};
  for (std::size_t i = 0; i < deck.size(); ++i) {
    const Card& card = deck[i];
    if (auto st = check_card(card); !st)
      return fail(fmt::format("deck list: card {} ({}) {}", i, card.name, st.error()));
    if (card.starter) ++starters[static_cast<std::size_t>(card.type)];
  }
  return check_starters(starters);
}

nlohmann::json card_to_json(const Card& card, CardId id) {
  nlohmann::json j = {{"id", id}, {"name", card.name}, {"type", enum_name(card.type)}};
  if (card.six_zero()) {
    j["number"] = "6/0";
  } else {
    j["number"] = card.number;
  }
  j["stars"] = card.stars;
  if (card.starter) j["starter"] = true;
  return j;
}

nlohmann::json deck_to_json(const Deck& deck) {
  nlohmann::json list = nlohmann::json::array();
  for (const Card& card : deck) {
    nlohmann::json j = {{"type", enum_name(card.type)}, {"stars", card.stars}, {"name", card.name}};
    if (card.six_zero()) {
      j["number"] = "6/0";
    } else {
      j["number"] = card.number;
    }
    if (card.starter) j["starter"] = true;
    list.push_back(std::move(j));
  }
  return list;
}

}  // namespace arena::stellar
