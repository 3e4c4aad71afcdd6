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
#include <utility>
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
  using Members = std::vector<std::pair<std::string_view, std::string_view>>;  // key, raw value
  // One view split into its members, and its "players" entries into theirs (views into `text`,
  // which is never moved once written).
  struct Split {
    std::string text;
    Members top;
    std::vector<Members> seats;
    bool seat_objects = false;  // "players" is a list of objects, all read into `seats`
    bool read(std::string_view view);
  };
  std::array<Split, 2> views_;  // the previous view and this one, alternately
  std::size_t cur_ = 0;
  bool have_previous_ = false;
};

}  // namespace arena::match
