#pragma once
// The ladder's JSON API, version 1 (docs/ladder.md "The web server and its API"): views of the
// ladder's store under /api/v1/ (status, leaderboard, bots, versions, matches, a match's replays),
// and with an account's token (Authorization: Bearer) its own build logs, who it is, and withdrawing
// its bots. Requests become typed store calls here; JSON is made only at this edge.

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <variant>

#include "referee/ladder/config.hpp"
#include "referee/ladder/leaderboard.hpp"
#include "referee/ladder/store.hpp"
#include "referee/web/bot_page.hpp"
#include "referee/web/bot_records.hpp"
#include "referee/web/http_server.hpp"
#include "referee/web/pages.hpp"

namespace arena::web {

// POST /api/v1/submit: an account's submissions (accepted or not) within a minute; more get 429.
// Counted in the database (Store::take_submission_slot): a restarted server counts them still.
inline constexpr std::size_t kSubmissionsPerMinute = 10;

// Who asks: the account of the request's bearer token, or nobody (no Authorization header).
using Caller = std::optional<ladder::AuthorRow>;

class Api {
 public:
  // `store`: a connection of the server's own (a Store is used by one thread at a time: requests
  // take their turn on it); `config`: the ladder's settings (logs_public decides who reads build
  // logs and rejection reasons).
  Api(std::unique_ptr<ladder::Store> store, ladder::LadderConfig config);

  // Any request: the API's paths answer JSON (a replay: JSON lines); any other path is a 404 with
  // a JSON error. Safe to call from several threads: requests take their turn on the store, and a
  // submission's form and files are read, checked and packed outside that turn (only its account,
  // its count and the version's insert take it), so a large upload holds up no other request.
  Response handle(const Request& request);
  // The largest body POST /api/v1/submit takes: ladder.json's submission cap ("max_mb") and room
  // for the form's other fields (ServerLimits::upload_bytes).
  std::size_t upload_bytes() const;

 private:
  Response route(const Request& request);
  // The caller, or the 401 that says why its token is refused.
  std::variant<Caller, Response> authenticate(const Request& request);
  bool sees_logs(const Caller& caller, const ladder::VersionRow& v) const;
  Response status();
  Response leaderboard();
  Response bots();
  Response bot(const std::string& name, const Caller& caller);
  Response versions(const Request& request, const Caller& caller);
  Response version(const std::string& id, bool ratings, const Caller& caller);
  Response withdraw(const std::string& name, const Caller& caller);
  // POST /api/v1/submit (api_submit.cpp): takes the lock itself, for its store calls only.
  Response submit(const Request& request);
  Response me(const Caller& caller);
  Response queue(const Caller& caller);
  Response events(const Request& request, const Caller& caller);
  Response matches(const Request& request);
  // The counted games the request's bot, fault, limit and before ask for, or the 400/404/500.
  std::variant<GamesFound, Response> find_games(const Request& request);
  // Counted games newest first below `before` (0: from the newest), of the versions `of_bot` (all
  // when empty), ended by a fault of `fault` when given, at most `limit`; `found.versions` set.
  Status collect_games(GamesFound& found, const std::set<ladder::Id>& of_bot, std::optional<replay::FaultKind> fault,
                       std::size_t limit, ladder::Id before);
  // What the bot page shows (its JSON and its page), or the 404/500.
  std::variant<BotView, Response> bot_view(const std::string& name);
  Response match(const std::string& id);
  Response replay(const std::string& id, const std::string& leg);
  // A counted leg's replay (its JSON lines), or the 400/404/500 that says why not.
  std::variant<std::string, Response> replay_text(const std::string& id, const std::string& leg);
  // The leaderboard's rows, its games read first.
  Result<std::vector<ladder::BoardRow>> board_rows();

  std::mutex mu_;
  std::unique_ptr<ladder::Store> store_;
  ladder::LadderConfig config_;
  ladder::Leaderboard board_;
  BotRecords records_;
};

}  // namespace arena::web
