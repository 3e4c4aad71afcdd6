// The adapter refuses an optional game hook declared with another signature (referee/games/
// adapter.hpp). Never linked: CTest compiles it with -fsyntax-only, as it is (game_hook_near_miss:
// Countdown plus a draw_table that forgot its style parameter must fail to compile with a message
// naming the hook and the signature expected) and with ARENA_EXACT_HOOK (game_hook_exact: the
// same game with the right signature compiles, so the failure is the hook's).
#include "referee/games/adapter.hpp"
#include "tests/games/plugin/countdown/countdown.hpp"

namespace arena::countdown {

struct HookedTraits : Traits {
#ifdef ARENA_EXACT_HOOK
  static std::string draw_table(const nlohmann::json&, const games::draw::SeatNames&, const games::draw::Style&) {
    return "a table";
  }
#else
  static std::string draw_table(const nlohmann::json&, const games::draw::SeatNames&) {
    return "a table";
  }
#endif
};

const games::GameAdapter<HookedTraits> hooked_countdown;

}  // namespace arena::countdown
