// The ladder's JSON API (api.hpp): routing, the store's rows as JSON.
#include "referee/web/api.hpp"

#include <fmt/format.h>

#include <map>
#include <set>
#include <string_view>

#include "referee/core/enum_names.hpp"
#include "referee/ladder/roster.hpp"
#include "referee/league/deal.hpp"
#include "referee/web/api_json.hpp"
#include "referee/web/pages.hpp"
#include "referee/web/tokens.hpp"

namespace arena::web {

using ladder::Id;
using nlohmann::json;

namespace {

constexpr std::string_view kPrefix = "/api/v1/";
constexpr std::string_view kMatchPages = "/matches/";
constexpr std::string_view kBotPages = "/bots/";
// The bot page's recent games.
constexpr std::size_t kBotGames = 20;
constexpr std::size_t kDefaultGames = 50;
constexpr std::size_t kMaxGames = 500;

// Unless the caller is the organiser: the 401 or 403 that says so.
std::optional<Response> not_organiser(const Caller& caller) {
  if (!caller) return needs_token();
  if (!caller->organiser)
    return error_response(403, fmt::format("only the organiser's account may read this, not {}", caller->name));
  return std::nullopt;
}

// A path's parts after the prefix: "bots/x" -> {"bots", "x"}; an empty part (a doubled or
// trailing '/') is kept, so such a path matches no route.
std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = path.find('/', start);
    parts.emplace_back(path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return parts;
}

// A positive id of at most 18 digits.
std::optional<Id> parse_id(const std::string& text) {
  if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  const Id id = std::stoll(text);
  if (id <= 0) return std::nullopt;
  return id;
}

// The request's `limit` (default 50, at most 500).
Result<std::size_t> query_limit(const Request& request) {
  const auto it = request.query.find("limit");
  if (it == request.query.end()) return kDefaultGames;
  const auto n = parse_id(it->second);
  if (!n || static_cast<std::size_t>(*n) > kMaxGames)
    return fail(fmt::format("limit \"{}\": a number from 1 to {}", it->second, kMaxGames));
  return static_cast<std::size_t>(*n);
}

json rating_json(const ladder::VersionRating& r) {
  json j{{"games", r.games}, {"points", r.points}, {"rated", r.rated}};
  if (r.games > 0) {
    j["rating"] = r.rating;
    j["low"] = r.low;
    j["high"] = r.high;
  } else {
    j["rating"] = nullptr;
    j["low"] = nullptr;
    j["high"] = nullptr;
  }
  if (r.places.empty()) {
    j["wins"] = r.wins;
    j["draws"] = r.draws;
    j["losses"] = r.losses;
  } else {
    j["places"] = r.places;
  }
  return j;
}

json seat_json(Id version, const std::map<Id, const ladder::VersionRow*>& by_id) {
  const auto it = by_id.find(version);
  if (it == by_id.end()) return json{{"version", version}, {"bot", nullptr}, {"number", nullptr}};
  return json{{"version", version}, {"bot", it->second->bot}, {"number", it->second->number}};
}

json game_json(const ladder::GameRow& g, const std::map<Id, const ladder::VersionRow*>& by_id) {
  json seats = json::array();
  for (Id v : g.seats) seats.push_back(seat_json(v, by_id));
  json j{{"game", g.id},
         {"match", g.match},
         {"leg", g.leg},
         {"seed", std::to_string(g.seed)},
         {"end", enum_name(g.end)},
         {"seats", std::move(seats)},
         {"scores", g.scores},
         {"ranks", g.ranks},
         {"end_ms", g.end_ms},
         {"replay", fmt::format("/api/v1/matches/{}/replay/{}", g.match, g.leg)}};
  if (g.fault_kind) {
    j["fault"] = json{{"seat", g.fault_seat ? json(*g.fault_seat) : json()},
                      {"kind", enum_name(*g.fault_kind)},
                      {"message", g.fault_message}};
  } else {
    j["fault"] = nullptr;
  }
  return j;
}

json history_json(const ladder::RatingRow& r) {
  return json{{"rating", r.rating}, {"low", r.low}, {"high", r.high}, {"games", r.games}, {"at_ms", r.at_ms}};
}

json first_fault_json(const FirstFault* f) {
  if (f == nullptr) return nullptr;
  return json{
      {"game", f->game}, {"match", f->match}, {"leg", f->leg}, {"kind", enum_name(f->kind)}, {"message", f->message}};
}

std::map<Id, const ladder::VersionRow*> index(const std::vector<ladder::VersionRow>& versions) {
  std::map<Id, const ladder::VersionRow*> out;
  for (const ladder::VersionRow& v : versions) out[v.id] = &v;
  return out;
}

}  // namespace

Api::Api(std::unique_ptr<ladder::Store> store, ladder::LadderConfig config)
    : store_(std::move(store)), config_(std::move(config)) {}

Response Api::handle(const Request& request) {
  if (request.method == "POST" && request.path == "/api/v1/submit") return submit(request);
  std::lock_guard lock(mu_);
  return route(request);
}

Response Api::route(const Request& request) {
  const std::string_view path = request.path;
  if (path == "/" || path == "/submit" || path == "/me" || path == "/organiser" || path == "/matches" ||
      path.substr(0, kMatchPages.size()) == kMatchPages || path.substr(0, kBotPages.size()) == kBotPages) {
    if (request.method != "GET") return wrong_method(request, "GET");
    Response r;
    r.content_type = "text/html; charset=utf-8";
    const char* policy = kPagePolicy;
    if (path == "/submit") {
      r.body = submit_page(config_);
    } else if (path == "/me") {
      r.body = account_page(config_);
    } else if (path == "/organiser") {
      r.body = organiser_page(config_);
    } else if (path == "/matches") {
      auto found = find_games(request);
      if (auto* refused = std::get_if<Response>(&found)) return std::move(*refused);
      r.body = matches_page(config_, std::get<GamesFound>(found), request.query);
    } else if (path.substr(0, kBotPages.size()) == kBotPages) {
      const std::vector<std::string> p = split_path(path.substr(kBotPages.size()));
      if (p.size() != 1) return error_response(404, fmt::format("no page at {} (/bots/NAME)", request.path));
      auto view = bot_view(p[0]);
      if (auto* refused = std::get_if<Response>(&view)) return std::move(*refused);
      r.body = bot_page(config_, std::get<BotView>(view));
    } else if (path == "/") {
      auto rows = board_rows();
      if (!rows) return database_error(rows.error());
      r.body = leaderboard_page(config_, *rows, board_.games());
    } else {
      // /matches/ID/LEG: the viewer of a counted leg.
      const std::vector<std::string> p = split_path(path.substr(kMatchPages.size()));
      if (p.size() != 2) return error_response(404, fmt::format("no page at {} (/matches/ID/LEG)", request.path));
      auto text = replay_text(p[0], p[1]);
      if (auto* refused = std::get_if<Response>(&text)) return std::move(*refused);
      auto page = match_page(std::get<std::string>(text), fmt::format("match {} leg {}", p[0], p[1]));
      if (!page) return error_response(500, page.error());
      policy = kViewerPolicy;
      r.body = std::move(*page);
    }
    r.headers.emplace_back("Content-Security-Policy", policy);
    return r;
  }
  if (path.substr(0, kPrefix.size()) != kPrefix) return error_response(404, fmt::format("no page at {}", request.path));
  const std::vector<std::string> p = split_path(path.substr(kPrefix.size()));
  const std::size_t n = p.size();
  // The paths that change something take POST (a POST to submit is handle()'s); every other GET.
  const bool post = (n == 3 && p[0] == "bots" && p[2] == "withdraw") || (n == 1 && p[0] == "submit");
  const char* allowed = post ? "POST" : "GET";
  if (request.method != allowed) return wrong_method(request, allowed);
  auto who = authenticate(request);
  if (auto* refused = std::get_if<Response>(&who)) return std::move(*refused);
  const Caller& caller = std::get<Caller>(who);
  if (post) return withdraw(p[1], caller);
  if (n == 1 && p[0] == "status") return status();
  if (n == 1 && p[0] == "me") return me(caller);
  if (n == 1 && p[0] == "queue") return queue(caller);
  if (n == 1 && p[0] == "events") return events(request, caller);
  if (n == 1 && p[0] == "leaderboard") return leaderboard();
  if (n == 1 && p[0] == "bots") return bots();
  if (n == 2 && p[0] == "bots") return bot(p[1], caller);
  if (n == 1 && p[0] == "versions") return versions(request, caller);
  if (n == 2 && p[0] == "versions") return version(p[1], false, caller);
  if (n == 3 && p[0] == "versions" && p[2] == "ratings") return version(p[1], true, caller);
  if (n == 1 && p[0] == "matches") return matches(request);
  if (n == 2 && p[0] == "matches") return match(p[1]);
  if (n == 4 && p[0] == "matches" && p[2] == "replay") return replay(p[1], p[3]);
  return error_response(404, fmt::format("the API has no {} (docs/ladder.md lists its paths)", request.path));
}

std::variant<Caller, Response> Api::authenticate(const Request& request) {
  const auto header = request.headers.find("authorization");
  if (header == request.headers.end()) return Caller();
  constexpr std::string_view kBearer = "Bearer ";
  const std::string& value = header->second;
  if (value.size() <= kBearer.size() || value.compare(0, kBearer.size(), kBearer) != 0)
    return unauthorized("the Authorization header must be \"Bearer TOKEN\" (`referee ladder author add` gives tokens)");
  const std::string hash = token_hash(std::string_view(value).substr(kBearer.size()));
  auto found = store_->author_by_token_hash(hash);
  if (!found) return database_error(found.error());
  if (!*found || !same_hash((*found)->token_hash, hash)) return unauthorized("the token is not one of this ladder's");
  return Caller(std::move(*found));
}

bool Api::sees_logs(const Caller& caller, const ladder::VersionRow& v) const {
  return config_.logs_public || (caller && (caller->organiser || caller->name == v.author));
}

Response Api::me(const Caller& caller) {
  if (!caller) return needs_token();
  return json_ok(json{{"name", caller->name}, {"organiser", caller->organiser}, {"created_ms", caller->created_ms}});
}

Response Api::queue(const Caller& caller) {
  if (auto refused = not_organiser(caller)) return std::move(*refused);
  auto versions = store_->versions();
  if (!versions) return database_error(versions.error());
  const auto by_id = index(*versions);
  json list = json::array();
  for (ladder::MatchState state :
       {ladder::MatchState::running, ladder::MatchState::queued, ladder::MatchState::reported}) {
    auto rows = store_->matches(state, kMaxGames);
    if (!rows) return database_error(rows.error());
    for (const ladder::MatchRow& m : *rows) {
      json seats = json::array();
      for (Id v : m.seats) seats.push_back(seat_json(v, by_id));
      list.push_back(json{{"id", m.id},
                          {"state", enum_name(m.state)},
                          {"seats", std::move(seats)},
                          {"legs", m.legs},
                          {"priority", m.priority},
                          {"worker", m.worker},
                          {"attempt", m.attempt},
                          {"lease_until_ms", m.lease_until_ms},
                          {"created_ms", m.created_ms}});
    }
  }
  return json_ok(json{{"matches", std::move(list)}});
}

Response Api::events(const Request& request, const Caller& caller) {
  if (auto refused = not_organiser(caller)) return std::move(*refused);
  const auto limit = query_limit(request);
  if (!limit) return error_response(400, limit.error());
  auto rows = store_->events(*limit);
  if (!rows) return database_error(rows.error());
  json list = json::array();
  for (const ladder::EventRow& e : *rows)
    list.push_back(json{{"id", e.id}, {"at_ms", e.at_ms}, {"kind", enum_name(e.kind)}, {"message", e.message}});
  return json_ok(json{{"events", std::move(list)}});
}

Response Api::withdraw(const std::string& name, const Caller& caller) {
  if (!caller) return needs_token();
  auto versions = store_->versions();
  if (!versions) return database_error(versions.error());
  const ladder::VersionRow* found = nullptr;
  for (const ladder::VersionRow& v : *versions)
    if (v.bot == name) found = &v;
  if (found == nullptr) return error_response(404, fmt::format("the ladder has no bot \"{}\"", name));
  if (!caller->organiser && found->author != caller->name)
    return error_response(403,
                          fmt::format("the bot \"{}\" belongs to {}, not to {}", name, found->author, caller->name));
  auto done = store_->withdraw(name, league::unix_ms());
  if (!done) return database_error(done.error());
  return json_ok(json{{"bot", name}, {"withdrawn", *done}});
}

Response Api::status() {
  json matches = json::object();
  for (ladder::MatchState s : {ladder::MatchState::queued, ladder::MatchState::running, ladder::MatchState::reported,
                               ladder::MatchState::counted}) {
    auto count = store_->count_matches(s);
    if (!count) return database_error(count.error());
    matches[std::string(enum_name(s))] = *count;
  }
  auto versions = store_->versions();
  if (!versions) return database_error(versions.error());
  json states = json::object();
  for (const auto& [state, name] : EnumNames<ladder::VersionState>::table) states[std::string(name)] = 0;
  for (const ladder::VersionRow& v : *versions)
    states[std::string(enum_name(v.state))] = states[std::string(enum_name(v.state))].get<int>() + 1;
  auto workers = store_->workers();
  if (!workers) return database_error(workers.error());
  json list = json::array();
  for (const ladder::WorkerRow& w : *workers) {
    list.push_back(json{{"name", w.name},
                        {"host", w.host},
                        {"started_ms", w.started_ms},
                        {"heartbeat_ms", w.heartbeat_ms},
                        {"match", w.match ? json(*w.match) : json()}});
  }
  return json_ok(json{{"game", config_.game},
                      {"seats", config_.seats},
                      {"logs_public", config_.logs_public},
                      {"matches", std::move(matches)},
                      {"versions", std::move(states)},
                      {"workers", std::move(list)},
                      {"now_ms", league::unix_ms()}});
}

Result<std::vector<ladder::BoardRow>> Api::board_rows() {
  if (auto st = board_.load(*store_); !st) return fail(st.error());
  auto versions = store_->versions();
  if (!versions) return fail(versions.error());
  return board_.rows(*versions);
}

Response Api::leaderboard() {
  auto board = board_rows();
  if (!board) return database_error(board.error());
  json rows = json::array();
  for (const ladder::BoardRow& r : *board) {
    json row = rating_json(r.rating);
    row["rank"] = r.rank;
    row["version"] = version_json(r.version, config_.logs_public, config_.logs_public, false);
    row["faults"] = r.faults;
    row["last_game_ms"] = r.last_game_ms > 0 ? json(r.last_game_ms) : json();
    rows.push_back(std::move(row));
  }
  return json_ok(
      json{{"game", config_.game}, {"seats", config_.seats}, {"games", board_.games()}, {"rows", std::move(rows)}});
}

Response Api::bots() {
  auto versions = store_->versions();
  if (!versions) return database_error(versions.error());
  std::map<std::string, json> by_bot;
  for (const ladder::VersionRow& v : *versions) {
    json& b = by_bot[v.bot];
    if (b.is_null()) b = json{{"name", v.bot}, {"author", v.author}, {"versions", 0}, {"active", nullptr}};
    b["versions"] = b["versions"].get<int>() + 1;
    b["latest"] = json{{"number", v.number}, {"state", enum_name(v.state)}};
    if (v.state == ladder::VersionState::active) b["active"] = v.number;
  }
  json out = json::array();
  for (auto& [name, b] : by_bot) out.push_back(std::move(b));
  return json_ok(json{{"bots", std::move(out)}});
}

std::variant<BotView, Response> Api::bot_view(const std::string& name) {
  auto all = store_->versions();
  if (!all) return database_error(all.error());
  std::vector<ladder::VersionRow> mine;
  std::set<Id> ids;
  std::map<Id, std::string> bot_of;
  for (const ladder::VersionRow& v : *all) {
    bot_of[v.id] = v.bot;
    if (v.bot != name) continue;
    mine.push_back(v);
    ids.insert(v.id);
  }
  if (mine.empty()) return error_response(404, fmt::format("the ladder has no bot \"{}\"", name));
  if (auto st = board_.load(*store_); !st) return database_error(st.error());
  if (auto st = records_.load(*store_); !st) return database_error(st.error());
  std::map<Id, ladder::BoardRow> rows;
  for (ladder::BoardRow& r : board_.rows(mine, true)) rows[r.version.id] = std::move(r);
  BotView view;
  view.name = name;
  view.author = mine.front().author;
  for (const ladder::VersionRow& v : mine) {
    auto history = store_->rating_history(v.id);
    if (!history) return database_error(history.error());
    VersionView vv;
    vv.row = rows.count(v.id) > 0 ? rows[v.id] : ladder::BoardRow{0, v, {}, 0, 0};
    vv.history = sample_history(*history, kHistoryPoints);
    vv.first_fault = records_.first_fault(v.id);
    view.versions.push_back(std::move(vv));
  }
  view.rivals = records_.of(ids, bot_of);
  view.recent.versions = std::move(*all);
  if (auto st = collect_games(view.recent, ids, std::nullopt, kBotGames, 0); !st) return database_error(st.error());
  return view;
}

Response Api::bot(const std::string& name, const Caller& caller) {
  auto found = bot_view(name);
  if (auto* refused = std::get_if<Response>(&found)) return std::move(*refused);
  const BotView& view = std::get<BotView>(found);
  json list = json::array();
  for (const VersionView& v : view.versions) {
    const bool logs = sees_logs(caller, v.row.version);
    json j = version_json(v.row.version, config_.logs_public, logs, false);
    j["rating"] = rating_json(v.row.rating);
    j["faults"] = v.row.faults;
    json history = json::array();
    for (const ladder::RatingRow& r : v.history) history.push_back(history_json(r));
    j["ratings"] = std::move(history);
    if (logs) j["first_fault"] = first_fault_json(v.first_fault);
    list.push_back(std::move(j));
  }
  json rivals = json::array();
  for (const Rivalry& r : view.rivals) {
    rivals.push_back(json{{"opponent", r.opponent},
                          {"games", r.games},
                          {"wins", r.wins},
                          {"draws", r.draws},
                          {"losses", r.losses},
                          {"mean_place", r.mean_place},
                          {"score", r.score()}});
  }
  const auto by_id = index(view.recent.versions);
  json recent = json::array();
  for (const ladder::GameRow& g : view.recent.games) recent.push_back(game_json(g, by_id));
  return json_ok(json{{"name", view.name},
                      {"author", view.author},
                      {"versions", std::move(list)},
                      {"head_to_head", std::move(rivals)},
                      {"recent", std::move(recent)}});
}

Response Api::versions(const Request& request, const Caller& caller) {
  std::optional<ladder::VersionState> state;
  if (auto it = request.query.find("state"); it != request.query.end()) {
    state = parse_enum<ladder::VersionState>(it->second);
    if (!state)
      return error_response(
          400, fmt::format("state \"{}\": one of {}", it->second, enum_names_text<ladder::VersionState>()));
  }
  auto versions = store_->versions(state);
  if (!versions) return database_error(versions.error());
  json list = json::array();
  for (const ladder::VersionRow& v : *versions)
    list.push_back(version_json(v, config_.logs_public, sees_logs(caller, v), false));
  return json_ok(json{{"versions", std::move(list)}});
}

Response Api::version(const std::string& id_text, bool ratings, const Caller& caller) {
  const auto id = parse_id(id_text);
  if (!id) return error_response(400, fmt::format("\"{}\" is not a version id (a positive number)", id_text));
  auto v = store_->version(*id);
  if (!v) return database_error(v.error());
  if (!*v) return error_response(404, fmt::format("the ladder has no version {}", *id));
  if (!ratings) {
    const bool logs = sees_logs(caller, **v);
    json j = version_json(**v, config_.logs_public, logs, true);
    if (logs) {
      if (auto st = records_.load(*store_); !st) return database_error(st.error());
      j["first_fault"] = first_fault_json(records_.first_fault(*id));
    }
    return json_ok(j);
  }
  auto history = store_->rating_history(*id);
  if (!history) return database_error(history.error());
  json list = json::array();
  for (const ladder::RatingRow& r : *history) list.push_back(history_json(r));
  return json_ok(json{{"version", *id}, {"ratings", std::move(list)}});
}

std::variant<GamesFound, Response> Api::find_games(const Request& request) {
  const auto limit = query_limit(request);
  if (!limit) return error_response(400, limit.error());
  Id before = 0;
  if (auto it = request.query.find("before"); it != request.query.end()) {
    const auto n = parse_id(it->second);
    if (!n) return error_response(400, fmt::format("before \"{}\": a game id (a positive number)", it->second));
    before = *n;
  }
  std::optional<replay::FaultKind> fault;
  if (auto it = request.query.find("fault"); it != request.query.end() && !it->second.empty()) {
    fault = parse_enum<replay::FaultKind>(it->second);
    if (!fault)
      return error_response(400,
                            fmt::format("fault \"{}\": one of {}", it->second, enum_names_text<replay::FaultKind>()));
  }
  GamesFound found;
  auto versions = store_->versions();
  if (!versions) return database_error(versions.error());
  found.versions = std::move(*versions);
  std::set<Id> of_bot;
  const auto bot = request.query.find("bot");
  if (bot != request.query.end() && !bot->second.empty()) {
    for (const ladder::VersionRow& v : found.versions)
      if (v.bot == bot->second) of_bot.insert(v.id);
    if (of_bot.empty()) return error_response(404, fmt::format("the ladder has no bot \"{}\"", bot->second));
  }
  if (auto st = collect_games(found, of_bot, fault, *limit, before); !st) return database_error(st.error());
  return found;
}

Status Api::collect_games(GamesFound& found, const std::set<Id>& of_bot, std::optional<replay::FaultKind> fault,
                          std::size_t limit, Id before) {
  // Newest first, a page at a time, until `limit` games of the bot are found or none are left.
  bool more = true;
  while (found.games.size() < limit && more) {
    auto page = store_->recent_games(kMaxGames, before, fault);
    if (!page) return fail(page.error());
    more = page->size() == kMaxGames;
    for (ladder::GameRow& g : *page) {
      before = g.id;
      bool wanted = of_bot.empty();
      for (Id v : g.seats) wanted = wanted || of_bot.count(v) > 0;
      if (!wanted) continue;
      found.games.push_back(std::move(g));
      if (found.games.size() == limit) {
        more = true;
        break;
      }
    }
  }
  if (more) found.next_before = before;
  return {};
}

Response Api::matches(const Request& request) {
  auto found = find_games(request);
  if (auto* refused = std::get_if<Response>(&found)) return std::move(*refused);
  const GamesFound& f = std::get<GamesFound>(found);
  const auto by_id = index(f.versions);
  json list = json::array();
  for (const ladder::GameRow& g : f.games) list.push_back(game_json(g, by_id));
  return json_ok(json{{"games", std::move(list)}, {"next_before", f.next_before ? json(*f.next_before) : json()}});
}

Response Api::match(const std::string& id_text) {
  const auto id = parse_id(id_text);
  if (!id) return error_response(400, fmt::format("\"{}\" is not a match id (a positive number)", id_text));
  auto m = store_->match(*id);
  if (!m) return database_error(m.error());
  if (!*m) return error_response(404, fmt::format("the ladder has no match {}", *id));
  auto games = store_->match_games(*id);
  if (!games) return database_error(games.error());
  auto versions = store_->versions();
  if (!versions) return database_error(versions.error());
  const auto by_id = index(*versions);
  json seats = json::array();
  for (Id v : (*m)->seats) seats.push_back(seat_json(v, by_id));
  json list = json::array();
  for (const ladder::GameRow& g : *games) list.push_back(game_json(g, by_id));
  return json_ok(json{{"id", (*m)->id},
                      {"state", enum_name((*m)->state)},
                      {"seats", std::move(seats)},
                      {"seed", std::to_string((*m)->seed)},
                      {"legs", (*m)->legs},
                      {"created_ms", (*m)->created_ms},
                      {"finished_ms", (*m)->finished_ms > 0 ? json((*m)->finished_ms) : json()},
                      {"games", std::move(list)}});
}

std::variant<std::string, Response> Api::replay_text(const std::string& id_text, const std::string& leg_text) {
  const auto id = parse_id(id_text);
  if (!id) return error_response(400, fmt::format("\"{}\" is not a match id (a positive number)", id_text));
  if (leg_text.empty() || leg_text.size() > 3 || leg_text.find_first_not_of("0123456789") != std::string::npos)
    return error_response(400, fmt::format("\"{}\" is not a leg (0, 1, ...)", leg_text));
  const int leg = std::stoi(leg_text);
  auto games = store_->match_games(*id);
  if (!games) return database_error(games.error());
  bool counted = false;
  for (const ladder::GameRow& g : *games) counted = counted || g.leg == leg;
  if (!counted) return error_response(404, fmt::format("match {} has no counted leg {}", *id, leg));
  auto text = store_->replay(*id, leg);
  if (!text) return database_error(text.error());
  return std::move(*text);
}

Response Api::replay(const std::string& id_text, const std::string& leg_text) {
  auto text = replay_text(id_text, leg_text);
  if (auto* refused = std::get_if<Response>(&text)) return std::move(*refused);
  Response r;
  r.content_type = "application/x-ndjson; charset=utf-8";
  r.body = std::move(std::get<std::string>(text));
  return r;
}

}  // namespace arena::web
