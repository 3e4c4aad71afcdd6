#pragma once
// The web viewer of a match (`referee html`): one self-contained HTML page that plays a replay step
// by step in an ordinary browser, from the file system, with no network access. The page's
// game-independent HTML, CSS and JavaScript live in referee/render/web/, the replay's game's own
// drawing in its web module (Game::web_module(), games/<game>/web/; a game without one is drawn
// by the viewer's generic drawing); both are embedded at build time. The match (the replay, its
// re-simulated frames and the game's card table) is embedded as JSON. This layer reaches the game
// only through the registry (games::find_game) and names none.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "referee/core/result.hpp"
#include "referee/replay/replay.hpp"

namespace arena::render {

// JSON text that is safe inside an HTML <script> element: '<', '>' and '&' are written as
// \u003c, \u003e and \u0026 (they only ever occur inside JSON strings, where JSON.parse reads the
// escapes back), so no bot text can close the element ("</script>") or open a comment. Invalid
// UTF-8 from bots is replaced, never thrown on. Every integer JavaScript cannot hold exactly (beyond
// +-(2^53 - 1)) is written as its decimal text (exact_in_javascript), so no page shows one rounded.
std::string script_safe_json(const nlohmann::json& j);

// `j` with every integer beyond +-(2^53 - 1) replaced by its decimal text, at any depth.
nlohmann::json exact_in_javascript(nlohmann::json j);

// What the page embeds: the game's name and title, the replay (header, steps with their recorded
// views, and the footer as replay::verify accepts it: null when there is none or it does not
// verify, and then "unverified" holds verify's reason), every frame from simulate() with the legal actions of the seat
// to act (null once the game is over), and Game::card_table() for the replay's config and seat configs (null for a game
// without one; the full state may name cards by id only). An error when the replay's game is unknown or the replay does
// not re-simulate. The seeds (the header's and the result's) are decimal text, as every 64-bit
// number a page shows.
Result<nlohmann::json> viewer_data(const replay::Replay& replay, const std::string& source_name);

// The whole page: the viewer, the game's web module and viewer_data() (its script-safe JSON,
// gzip-compressed in base64: page_data.hpp; the page inflates it in the browser). Its title names the game,
// the seed and the bots, never the result. `source_name` (the replay's file name) is shown in the
// page.
Result<std::string> html_page(const replay::Replay& replay, const std::string& source_name);

}  // namespace arena::render
