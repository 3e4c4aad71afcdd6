#pragma once
// protocol2.hpp: protocol version 2 for a bot written against version-1 views (docs/protocol.md,
// "Version 2: compact views, negotiated"). Standard library and nlohmann/json only: copy it.
//
// Version 2 sends the match's card table once, in hello ("cards": an array indexed by card id,
// null for a card this seat may not know), and a Stellar view names every card by its integer
// id instead of its object; so does an Interstellar view (its table holds the seat's own cards
// only: deck lists are private). A view also carries "cards" (an array of card objects) for the
// ids the hello table lacks: another seat's own-deck cards. Stella Quest views are the same in
// both versions.
//
// CardTable::expand puts the card objects back where the ids are: the view is then exactly the
// version-1 view, and version-1 code (greedy_policy.hpp) reads it unchanged. The pattern:
//
//   int protocol = 1;
//   protocol2::CardTable cards;
//   hello:   protocol = protocol2::choose(hello);  cards.reset(hello);   // at every hello
//            reply ready with "protocol": protocol (and "reuse": true when it is 2)
//   request: if (protocol == 2) cards.expand(request["view"]);             // then decide as in v1
//            reply action with "protocol": protocol
//
// Only the view is expanded: legal actions and actions name cards by id in both versions.
// Expanding copies each card object the view names; a bot that wants every microsecond reads
// the ids directly and looks them up in its table instead.
//
// Reading only what a decision needs (Fields, elements): a bot that does not look at the view
// (random_bot) need not parse it. Fields finds the top-level members of a line and keeps each
// value as its raw text, skipping over the others by their brackets and strings without building
// anything; elements() splits an array's text the same way. An action copied from "legal" can be
// sent as its raw text, unparsed. The referee's lines are valid JSON: these readers do not
// validate what they skip (json::parse a value that you use as more than text).

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string_view>
#include <utility>
#include <vector>

namespace protocol2 {

using nlohmann::json;

// The version to answer hello with: 2 if the referee offers it in "protocols", else 1 (a
// version-1 referee sends no "protocols", and its hello still says "protocol": 1).
inline int choose(const json& hello) {
  const auto offered = hello.find("protocols");
  if (offered == hello.end() || !offered->is_array()) return 1;
  for (const json& version : *offered) {
    if (version == 2) return 2;
  }
  return 1;
}

namespace detail {

inline bool space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
inline std::size_t skip_space(std::string_view s, std::size_t i) {
  while (i < s.size() && space(s[i])) ++i;
  return i;
}
// Past the string whose opening quote is at `i`; npos when it does not end. (A plain loop: the
// protocol's strings are short, shorter than a memchr call is worth.)
inline std::size_t skip_string(std::string_view s, std::size_t i) {
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\') {
      ++i;
    } else if (s[i] == '"') {
      return i + 1;
    }
  }
  return std::string_view::npos;
}
// The characters that matter inside an object or array: quotes and brackets.
inline bool structural(char c) {
  static constexpr auto kTable = [] {
    std::array<bool, 256> t{};
    for (const char k : {'"', '{', '}', '[', ']'}) t[static_cast<unsigned char>(k)] = true;
    return t;
  }();
  return kTable[static_cast<unsigned char>(c)];
}
// Past the value that starts at `i` (a string, an object or array with everything inside it, or a
// number, true, false or null); npos when the text ends first.
inline std::size_t skip_value(std::string_view s, std::size_t i) {
  if (i >= s.size()) return std::string_view::npos;
  if (s[i] == '"') return skip_string(s, i);
  if (s[i] == '{' || s[i] == '[') {
    int depth = 0;
    while (i < s.size()) {
      const char c = s[i];
      if (c == '"') {
        i = skip_string(s, i);
        if (i == std::string_view::npos) return i;
        continue;
      }
      if (c == '{' || c == '[') ++depth;
      if ((c == '}' || c == ']') && --depth == 0) return i + 1;
      for (++i; i < s.size() && !structural(s[i]);) ++i;
    }
    return std::string_view::npos;
  }
  const std::size_t start = i;
  while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']' && !space(s[i])) ++i;
  return i > start ? i : std::string_view::npos;
}

// Reads the object or array (`open`, `close`: its brackets) that starts at `i`: `entry(at)` is
// called with where each entry starts and returns where it ends (npos: stop). Returns past the
// closing bracket, or npos.
template <typename Entry>
std::size_t entries(std::string_view s, std::size_t i, char open, char close, Entry&& entry) {
  if (i >= s.size() || s[i] != open) return std::string_view::npos;
  i = skip_space(s, i + 1);
  if (i < s.size() && s[i] == close) return i + 1;
  for (;;) {
    const std::size_t end = entry(i);
    if (end == std::string_view::npos) return end;
    i = skip_space(s, end);
    if (i < s.size() && s[i] == ',') {
      i = skip_space(s, i + 1);
      continue;
    }
    return i < s.size() && s[i] == close ? i + 1 : std::string_view::npos;
  }
}

// Reads the object that starts at `i`: `member(key, at)` is called for each member with its key
// (without quotes) and where its value starts, and returns where the value ends (npos: stop).
// Returns past the closing '}', or npos when this is not an object.
template <typename Member>
std::size_t object_members(std::string_view s, std::size_t i, Member&& member) {
  return entries(s, i, '{', '}', [&](std::size_t at) {
    if (at >= s.size() || s[at] != '"') return std::string_view::npos;
    const std::size_t key_end = skip_string(s, at);
    if (key_end == std::string_view::npos) return key_end;
    const std::size_t colon = skip_space(s, key_end);
    if (colon >= s.size() || s[colon] != ':') return std::string_view::npos;
    return member(s.substr(at + 1, key_end - at - 2), skip_space(s, colon + 1));
  });
}

// Reads the array that starts at `i`: `element(at)` is called with where each element starts
// and returns where it ends (npos: stop). Returns past the ']', or npos.
template <typename Element>
std::size_t array_elements(std::string_view s, std::size_t i, Element&& element) {
  return entries(s, i, '[', ']', element);
}

}  // namespace detail

// The top-level members of one JSON object line, each value as its raw text (views into the line:
// keep the line alive while they are used). The referee's keys are plain ASCII, so a key is
// compared as written.
class Fields {
 public:
  // False when `line` is not one JSON object (json::parse it to say what is wrong).
  //
  // With `wanted` keys it stops as soon as it has all of them, and the rest of the line is not
  // even scanned: the referee writes a request's members in key order, so "id", "legal" and
  // "type" come before the view, the bulk of the line. False then only when the line is not an
  // object as far as it was read; the members after the last wanted one are not there.
  bool read(std::string_view line, std::initializer_list<std::string_view> wanted = {}) {
    members_.clear();
    std::size_t missing = wanted.size();
    const std::size_t end =
        detail::object_members(line, detail::skip_space(line, 0), [&](std::string_view key, std::size_t at) {
          const std::size_t value_end = detail::skip_value(line, at);
          if (value_end == std::string_view::npos) return value_end;
          const bool first = (*this)[key].empty();
          members_.emplace_back(key, line.substr(at, value_end - at));
          if (missing > 0 && first && std::find(wanted.begin(), wanted.end(), key) != wanted.end() && --missing == 0)
            return std::string_view::npos;  // stop: everything wanted is here
          return value_end;
        });
    if (wanted.size() > 0 && missing == 0) return true;
    return end != std::string_view::npos && detail::skip_space(line, end) == line.size();
  }
  // The raw text of member `key` ("7", "\"request\"", "[...]"), empty when there is none.
  std::string_view operator[](std::string_view key) const {
    for (const auto& [k, v] : members_) {
      if (k == key) return v;
    }
    return {};
  }
  // Every member in the line's order: (key without its quotes, raw value).
  const std::vector<std::pair<std::string_view, std::string_view>>& members() const { return members_; }

 private:
  std::vector<std::pair<std::string_view, std::string_view>> members_;
};

// The raw texts of the elements of `array` (an array's raw text, e.g. Fields()["legal"]), in
// `out`; false when it is not an array.
inline bool elements(std::string_view array, std::vector<std::string_view>& out) {
  out.clear();
  const std::size_t end = detail::array_elements(array, detail::skip_space(array, 0), [&](std::size_t at) {
    const std::size_t value_end = detail::skip_value(array, at);
    if (value_end != std::string_view::npos) out.push_back(array.substr(at, value_end - at));
    return value_end;
  });
  return end != std::string_view::npos;
}

// choose() from hello's raw "protocols" (Fields()["protocols"]; empty when there is none): 2 if
// the array offers it, else 1.
inline int choose(std::string_view protocols) {
  std::vector<std::string_view> offered;
  if (!elements(protocols, offered)) return 1;
  return std::find(offered.begin(), offered.end(), "2") != offered.end() ? 2 : 1;
}

class CardTable {
 public:
  // A new match: keeps hello's "cards" (none from a version-1 referee or for a game without a
  // card table). Element i is the object of card i, or null.
  void reset(const json& hello) {
    const auto table = hello.find("cards");
    cards_ = table != hello.end() && table->is_array() ? *table : json::array();
    interstellar_ = hello.value("game", "") == "interstellar";
  }

  // Turns a version-2 view into its version-1 form, in place: every card id becomes the card's
  // object, from the hello table or from the view's own "cards" (which is then removed). An id
  // found in neither stays an id (a policy that cannot read it falls back to a legal action).
  void expand(json& view) const {
    json own = json::array();
    if (const auto it = view.find("cards"); view.is_object() && it != view.end()) {
      own = std::move(*it);
      view.erase(it);
    }
    expand_in(view, own);
  }

 private:
  // Where a view holds cards: the values of these keys, at any depth, are a card or a list of
  // cards. Stellar (docs/games/stellar.md, section 7): the row has null for an empty slot; "card"
  // is a telescope slot's card; "discard" is also in each entry of "decks". Interstellar
  // (docs/games/interstellar.md, section 11): the piles and slots of each player, a planet's
  // "harvest" and "colony", an event's "card" and a Cloak's "drawn" (a planet's, an element's or
  // a gate's "card" is its key, a string, and stays; a Depletion's "drawn" is a count). Other
  // integers (seat, turn, a planet id in "target", ...) are not cards.
  bool holds_cards(const json& node, std::string_view key) const {
    for (std::string_view k : {"discard", "hand", "card"}) {
      if (key == k) return true;
    }
    if (interstellar_) {
      for (std::string_view k : {"water", "stars", "pods", "void", "harvest", "colony"}) {
        if (key == k) return true;
      }
      return key == "drawn" && node.value("event", "") == "cloak";
    }
    for (std::string_view k : {"row", "notebook", "starters", "placing"}) {
      if (key == k) return true;
    }
    return false;
  }

  void expand_in(json& node, const json& own) const {
    if (node.is_array()) {
      for (json& element : node) expand_in(element, own);
      return;
    }
    if (!node.is_object()) return;
    for (auto it = node.begin(); it != node.end(); ++it) {
      json& value = it.value();
      if (!holds_cards(node, it.key())) {
        expand_in(value, own);
      } else if (value.is_array()) {
        for (json& element : value) replace(element, own);
      } else {
        replace(value, own);
      }
    }
  }

  void replace(json& id, const json& own) const {
    if (!id.is_number_integer()) return;  // null, or already a card object
    const auto i = id.get<std::int64_t>();
    if (i >= 0 && static_cast<std::size_t>(i) < cards_.size() && cards_[static_cast<std::size_t>(i)].is_object()) {
      id = cards_[static_cast<std::size_t>(i)];
      return;
    }
    for (const json& card : own) {
      if (card.is_object() && card.value("id", std::int64_t{-1}) == i) {
        id = card;
        return;
      }
    }
  }

  json cards_ = json::array();
  bool interstellar_ = false;
};

}  // namespace protocol2
