#pragma once
// Protocol 2's opt-in view delta (docs/protocol.md, "View deltas"): instead of the whole view, a
// bot that said "view_delta": true in its ready gets, in each request of a match, only the view's
// members that changed since its last request of that match, and one level deeper in "players"
// (each seat's entry as an object of its changed members, when the list keeps its length and
// every entry is an object before and after). The first request of a match carries the whole
// view. A member that disappears is named in "view_removed" (JSON pointers).

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "sample_bots/cpp/protocol2.hpp"

namespace arena::match {

class ViewDelta {
 public:
  // Writes the delta of `view` (a JSON object as text: GameState::write_view_v2) against the view
  // given last into `delta` (a JSON object) and the removed members into `removed` (a JSON array,
  // empty text when none were removed); then remembers `view`. A view that is not a JSON object
  // (never, from a game) is sent whole.
  void write(std::string_view view, std::string& delta, std::string& removed);

 private:
  // The previous view and this one, alternately (views into text_ stay valid: it is not moved).
  std::array<std::string, 2> text_;
  std::array<protocol2::Fields, 2> fields_;
  std::array<std::vector<std::string_view>, 2> players_;
  std::array<std::vector<protocol2::Fields>, 2> player_fields_;
  std::array<bool, 2> seat_objects_{};  // "players" is a list of objects
  std::size_t cur_ = 0;
  bool have_previous_ = false;
};

}  // namespace arena::match
