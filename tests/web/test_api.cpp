// The ladder's JSON API against a real server on a real ladder (docs/ladder.md "The web server
// and its API"): one ladder for every case (two Python bots that play, one that is rejected with
// HTML in its build log, an author whose name is HTML), played by `referee ladder run`, then served
// by `referee ladder serve`; every endpoint, its errors, the logs only where ladder.json makes them
// public or to their author's token, accounts (401, 403, withdraw), 64 unfinished requests that do
// not hold up a leaderboard, an oversized request, `run --listen` serving while it plays, and
// submissions over HTTP (files, archives, each refusal, the cap, the rate limit, submit --server).

#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "referee/ladder/store_sql.hpp"
#include "referee/web/multipart.hpp"
#include "tests/ladder/ladder_harness.hpp"
#include "tests/match/harness.hpp"
#include "tests/web/http_client.hpp"

using namespace arena;
using namespace arena::testing;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kHostileAuthor = "<img src=x onerror=alert(1)>";
const std::string kHostileLog = "<script>alert(\"log\")</script>";

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The port a `serve` or `run --listen` prints in its log ("serving http://127.0.0.1:PORT/...").
std::uint16_t served_port(const fs::path& log) {
  std::uint16_t port = 0;
  const bool up = wait_until(
      [&] {
        std::smatch m;
        const std::string text = read_text(log);
        if (!std::regex_search(text, m, std::regex("serving http://127\\.0\\.0\\.1:([0-9]+)/api/v1/"))) return false;
        port = static_cast<std::uint16_t>(std::stoi(m[1]));
        return true;
      },
      std::chrono::seconds(60));
  INFO(read_text(log));
  REQUIRE(up);
  return port;
}

json get_json(std::uint16_t port, const std::string& target, int status = 200) {
  const Reply r = http_get(port, target);
  INFO(target << ": " << r.body);
  REQUIRE(r.status == status);
  CHECK(r.headers.at("content-type") == "application/json");
  CHECK(r.headers.at("x-content-type-options") == "nosniff");
  return json::parse(r.body);
}

// A page: HTML that may load nothing from elsewhere and talk only to its server.
Reply get_page(std::uint16_t port, const std::string& target) {
  const Reply r = http_get(port, target);
  INFO(target << ": " << r.body);
  REQUIRE(r.status == 200);
  CHECK(r.headers.at("content-type") == "text/html; charset=utf-8");
  CHECK_THAT(r.headers.at("content-security-policy"),
             Catch::Contains("default-src 'none'") && Catch::Contains("connect-src 'self'"));
  return r;
}

// The ladder every case reads, made once: its folder and its server.
struct SharedLadder {
  fs::path dir;
  fs::path ladder;
  std::unique_ptr<Background> server;
  std::uint16_t port = 0;
};

SharedLadder& shared_ladder() {
  static SharedLadder s = [] {
    SharedLadder l;
    l.dir = fresh_dir("web", "api-" + std::to_string(::getpid()));  // ctest -j runs cases side by side
    l.ladder = l.dir / "ladder";
    Command c = ladder_cli("init " + quoted(l.ladder) + " --game stellar --placement-games 2 --check-games 1");
    INFO(c.out);
    REQUIRE(c.exit_code == 0);
    const fs::path subs = l.dir / "submissions";
    const fs::path crashing =
        submission(subs, "crashing", R"({"language": "python"})",
                   {{"bot.py", "import sys\nsys.stderr.write('" + kHostileLog + "\\n')\nsys.exit(3)\n"}});
    for (const auto& [name, path, author] : {std::tuple{"kit", starter_kit("python"), kHostileAuthor},
                                             std::tuple{"random", python_random_submission(subs), std::string("alice")},
                                             std::tuple{"crashing", crashing, std::string("bob")}}) {
      c = ladder_cli("submit " + quoted(l.ladder) + " " + quoted(path) + " --name " + name + " --author '" + author +
                     "'");
      INFO(c.out);
      REQUIRE(c.exit_code == 0);
    }
    c = ladder_cli("run " + quoted(l.ladder) + " -j 2 --stop-after 4");
    INFO(c.out);
    REQUIRE(c.exit_code == 0);
    l.server = std::make_unique<Background>(referee() + " ladder serve " + quoted(l.ladder) + " --listen 127.0.0.1:0",
                                            l.dir / "serve.log");
    l.port = served_port(l.dir / "serve.log");
    return l;
  }();
  return s;
}

}  // namespace

TEST_CASE("web API: status, leaderboard, bots and versions of a real ladder", "[ladder]") {
  const std::uint16_t port = shared_ladder().port;
  const json status = get_json(port, "/api/v1/status");
  CHECK(status["game"] == "stellar");
  CHECK(status["seats"] == 2);
  CHECK(status["logs_public"] == false);
  CHECK(status["matches"]["counted"].get<int>() >= 4);
  CHECK(status["versions"]["active"] == 2);
  CHECK(status["versions"]["rejected"] == 1);
  CHECK(status["workers"].is_array());

  const json board = get_json(port, "/api/v1/leaderboard");
  CHECK(board["games"].get<int>() >= 8);  // 4 matches of 2 legs
  REQUIRE(board["rows"].size() == 2);
  std::set<std::string> bots;
  for (const json& row : board["rows"]) {
    bots.insert(row["version"]["bot"].get<std::string>());
    CHECK(row["games"].get<int>() >= 8);
    CHECK(row["wins"].get<int>() + row["draws"].get<int>() + row["losses"].get<int>() == row["games"].get<int>());
    CHECK(row["low"].get<double>() <= row["rating"].get<double>());
    CHECK(row["rating"].get<double>() <= row["high"].get<double>());
    CHECK(row["version"]["state"] == "active");
    CHECK(row["last_game_ms"].get<std::int64_t>() > 0);
    if (row["version"]["bot"] == "kit") CHECK(row["version"]["author"] == kHostileAuthor);  // data, kept as written
  }
  CHECK(bots == std::set<std::string>{"kit", "random"});
  CHECK(board["rows"][0]["rank"] == 1);

  const json list = get_json(port, "/api/v1/bots");
  REQUIRE(list["bots"].size() == 3);
  CHECK(list["bots"][0]["name"] == "crashing");
  CHECK(list["bots"][0]["active"].is_null());
  CHECK(list["bots"][0]["latest"]["state"] == "rejected");
  CHECK(list["bots"][1]["active"] == 1);

  const json crashing = get_json(port, "/api/v1/bots/crashing");
  CHECK(crashing["author"] == "bob");
  REQUIRE(crashing["versions"].size() == 1);
  const json& v = crashing["versions"][0];
  CHECK(v["state"] == "rejected");
  CHECK(v["language"] == "python");
  CHECK(v["logs_public"] == false);
  CHECK_FALSE(v.contains("fault"));  // ladder.json keeps logs to their authors
  CHECK_FALSE(v.contains("build_log"));
  const std::string id = std::to_string(v["id"].get<int>());
  const json one = get_json(port, "/api/v1/versions/" + id);
  CHECK(one["bot"] == "crashing");
  CHECK_FALSE(one.contains("build_log"));
  CHECK(get_json(port, "/api/v1/versions?state=rejected")["versions"].size() == 1);
  CHECK(get_json(port, "/api/v1/versions")["versions"].size() == 3);
  CHECK(get_json(port, "/api/v1/versions/" + id + "/ratings")["ratings"].empty());

  const json kit = get_json(port, "/api/v1/bots/kit");
  const std::string kit_id = std::to_string(kit["versions"][0]["id"].get<int>());
  const json history = get_json(port, "/api/v1/versions/" + kit_id + "/ratings");
  REQUIRE_FALSE(history["ratings"].empty());
  CHECK(history["ratings"].back()["games"].get<int>() >= 8);

  CHECK(get_json(port, "/api/v1/bots/nobody", 404)["error"] == "the ladder has no bot \"nobody\"");
  CHECK(get_json(port, "/api/v1/versions/999", 404)["error"] == "the ladder has no version 999");
  CHECK_THAT(get_json(port, "/api/v1/versions/abc", 400)["error"].get<std::string>(),
             Catch::Contains("not a version id"));
  CHECK_THAT(get_json(port, "/api/v1/versions?state=happy", 400)["error"].get<std::string>(),
             Catch::Contains("\"building\""));
  CHECK(get_json(port, "/api/v1/nothing", 404).contains("error"));
  CHECK(get_json(port, "/elsewhere", 404).contains("error"));
  CHECK(get_json(port, "/api/v1/bots/", 404).contains("error"));
  const Reply post = http_request(port, "POST", "/api/v1/status");
  CHECK(post.status == 405);
  CHECK(post.headers.at("allow") == "GET");
}

TEST_CASE("web API: recent matches, filters, one match and its replays", "[ladder]") {
  const std::uint16_t port = shared_ladder().port;
  const json all = get_json(port, "/api/v1/matches");
  REQUIRE(all["games"].size() >= 8);
  CHECK(all["next_before"].is_null());
  for (std::size_t i = 1; i < all["games"].size(); ++i)
    CHECK(all["games"][i - 1]["game"].get<int>() > all["games"][i]["game"].get<int>());

  const json page = get_json(port, "/api/v1/matches?limit=3");
  REQUIRE(page["games"].size() == 3);
  const std::string next = std::to_string(page["next_before"].get<int>());
  const json rest = get_json(port, "/api/v1/matches?limit=500&before=" + next);
  CHECK(rest["games"].size() + 3 == all["games"].size());
  CHECK(rest["games"][0]["game"] == all["games"][3]["game"]);

  const json of_random = get_json(port, "/api/v1/matches?bot=random");
  CHECK(of_random["games"].size() == all["games"].size());  // two bots play every game
  for (const json& g : of_random["games"]) {
    bool seated = false;
    for (const json& s : g["seats"]) seated = seated || s["bot"] == "random";
    CHECK(seated);
  }
  CHECK(get_json(port, "/api/v1/matches?bot=crashing")["games"].empty());  // rejected: never played
  CHECK(get_json(port, "/api/v1/matches?bot=ghost", 404).contains("error"));
  CHECK(get_json(port, "/api/v1/matches?fault=crash")["games"].empty());
  CHECK_THAT(get_json(port, "/api/v1/matches?fault=boom", 400)["error"].get<std::string>(),
             Catch::Contains("\"timeout\""));
  CHECK(get_json(port, "/api/v1/matches?limit=0", 400).contains("error"));
  CHECK(get_json(port, "/api/v1/matches?limit=501", 400).contains("error"));

  const json& g = all["games"].back();
  const int match = g["match"].get<int>();
  const json m = get_json(port, "/api/v1/matches/" + std::to_string(match));
  CHECK(m["state"] == "counted");
  CHECK(m["legs"] == 2);
  REQUIRE(m["games"].size() == 2);
  CHECK(m["games"][0]["leg"] == 0);
  CHECK(m["seats"].size() == 2);
  CHECK(m["seats"][0]["bot"] == m["games"][0]["seats"][0]["bot"]);
  CHECK(m["seats"][0]["bot"] == m["games"][1]["seats"][1]["bot"]);  // leg 1 rotates the seats

  const std::string replay_path = m["games"][1]["replay"].get<std::string>();
  CHECK(replay_path == "/api/v1/matches/" + std::to_string(match) + "/replay/1");
  const Reply replay = http_get(port, replay_path);
  REQUIRE(replay.status == 200);
  CHECK(replay.headers.at("content-type") == "application/x-ndjson; charset=utf-8");
  std::istringstream lines(replay.body);
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    INFO(line);
    CHECK(json::accept(line));
    ++n;
  }
  CHECK(n > 2);  // header, steps, footer
  CHECK(get_json(port, "/api/v1/matches/" + std::to_string(match) + "/replay/2", 404).contains("error"));
  CHECK(get_json(port, "/api/v1/matches/99999", 404)["error"] == "the ladder has no match 99999");
  CHECK(get_json(port, "/api/v1/matches/99999/replay/0", 404).contains("error"));
  CHECK(get_json(port, "/api/v1/matches/1/replay/x", 400).contains("error"));
}

TEST_CASE("web API: build logs and rejection reasons only where ladder.json makes them public", "[ladder]") {
  SharedLadder& l = shared_ladder();
  // A copy of the ladder folder with "logs_public": true, served by a second server.
  const fs::path copy = l.dir / "public";
  fs::copy(l.ladder, copy, fs::copy_options::recursive);
  json config = json::parse(read_text(copy / "ladder.json"));
  config["logs_public"] = true;
  std::ofstream(copy / "ladder.json") << config.dump(2);
  Background server(referee() + " ladder serve " + quoted(copy) + " --listen 127.0.0.1:0", l.dir / "public.log");
  const std::uint16_t port = served_port(l.dir / "public.log");
  CHECK(get_json(port, "/api/v1/status")["logs_public"] == true);
  const json crashing = get_json(port, "/api/v1/bots/crashing");
  const json& v = crashing["versions"][0];
  CHECK_THAT(v["fault"].get<std::string>(), Catch::Contains("handshake"));
  CHECK_FALSE(v.contains("build_log"));  // lists carry no logs; the version's own path does
  const json one = get_json(port, "/api/v1/versions/" + std::to_string(v["id"].get<int>()));
  // HTML in the log is data in a JSON string, served as JSON that browsers may not sniff as a page.
  CHECK_THAT(one["build_log"].get<std::string>(), Catch::Contains(kHostileLog));
  CHECK(one.contains("first_fault"));
  // The bot page draws them itself, escaped, and needs no script to read them.
  const Reply page = get_page(port, "/bots/crashing");
  CHECK_THAT(page.body, Catch::Contains("&lt;script&gt;alert(&quot;log&quot;)&lt;/script&gt;"));
  CHECK_THAT(page.body, Catch::Contains("why it was rejected: "));
  CHECK(page.body.find(kHostileLog) == std::string::npos);
  CHECK(page.body.find("<script") == std::string::npos);
  CHECK(server.stop(SIGTERM) == 128 + SIGTERM);
}

TEST_CASE("web API: 64 unfinished requests do not hold up a leaderboard, an oversized request is refused", "[ladder]") {
  const std::uint16_t port = shared_ladder().port;
  std::vector<std::unique_ptr<RawConnection>> slow;
  for (int i = 0; i < 64; ++i) {
    slow.push_back(std::make_unique<RawConnection>(port));
    REQUIRE(slow.back()->connected());
    REQUIRE(slow.back()->send("GET /api/v1/leaderboard HTTP/1.1\r\nHost: x\r\nX-Slow: "));  // never finished
  }
  // A correctness bound, generous: a server that gave each slow client a thread would wait for
  // their timeouts (10 s) before answering.
  const auto start = std::chrono::steady_clock::now();
  const Reply board = http_get(port, "/api/v1/leaderboard");
  const auto took = std::chrono::steady_clock::now() - start;
  CHECK(board.status == 200);
  CHECK(took < std::chrono::seconds(1));
  slow.clear();

  const std::string answer =
      raw_exchange(port, "POST /api/v1/status HTTP/1.1\r\nHost: x\r\nContent-Length: 2097152\r\n\r\n");
  CHECK_THAT(answer, Catch::StartsWith("HTTP/1.1 413"));
  CHECK_THAT(answer, Catch::Contains("over the limit of 1048576 bytes"));
  CHECK(http_get(port, "/api/v1/status").status == 200);
}

TEST_CASE("web API: `ladder run --listen` serves while it plays, a wrong --listen is a usage error", "[ladder]") {
  SharedLadder& l = shared_ladder();
  const int before = get_json(l.port, "/api/v1/status")["matches"]["counted"].get<int>();
  Background run(referee() + " ladder run " + quoted(l.ladder) + " -j 1 --listen 127.0.0.1:0", l.dir / "run.log");
  const std::uint16_t port = served_port(l.dir / "run.log");
  // The numbers move while the page is open: matches are counted as they finish.
  CHECK(wait_until([&] { return get_json(port, "/api/v1/status")["matches"]["counted"].get<int>() > before; },
                   std::chrono::seconds(120)));
  CHECK(get_json(port, "/api/v1/leaderboard")["rows"].size() == 2);
  CHECK(run.stop(SIGTERM) == 128 + SIGTERM);
  CHECK(http_get(port, "/api/v1/status").status == 0);  // stopped with the run

  Command c = ladder_cli("serve " + quoted(l.ladder) + " --listen 127.0.0.1:99999");
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Catch::Contains("--listen \"127.0.0.1:99999\": the port must be a number from 0 to 65535"));
  c = ladder_cli("run " + quoted(l.ladder) + " --listen 127.0.0.1:" + std::to_string(l.port));
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.out, Catch::Contains("cannot listen on 127.0.0.1:" + std::to_string(l.port)));
}

TEST_CASE("web API: accounts: tokens printed once, a build log to its author, withdraw by its owner only", "[ladder]") {
  SharedLadder& l = shared_ladder();
  const std::uint16_t port = l.port;
  const auto token = [&](const std::string& args) {
    Command c = run(referee() + " ladder author add " + quoted(l.ladder) + " " + args + " 2>/dev/null");
    REQUIRE(c.exit_code == 0);
    REQUIRE(c.out.size() == 44);  // 43 characters of URL-safe base64 and a newline
    return c.out.substr(0, 43);
  };
  const std::string bob = token("bob");
  const std::string alice = token("alice");
  const std::string org = token("org --organiser");
  CHECK(bob != alice);
  Command again = ladder_cli("author add " + quoted(l.ladder) + " bob");
  CHECK(again.exit_code == 2);
  CHECK_THAT(again.out, Catch::Contains("the ladder has an account \"bob\" already"));
  Command bad = ladder_cli("author add " + quoted(l.ladder) + " '<b>'");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.out, Catch::Contains("the account's name \"<b>\": only letters"));
  Command list = ladder_cli("author list " + quoted(l.ladder));
  CHECK(list.exit_code == 0);
  CHECK_THAT(list.out, Catch::Contains("org") && Catch::Contains("organiser") && !Catch::Contains(bob));
  // Only hashes are kept: no token in the database file.
  CHECK(read_text(l.ladder / "ladder.db").find(bob) == std::string::npos);

  const auto with = [&](const std::string& method, const std::string& target, const std::string& t) {
    return http_request(port, method, target, {{"Authorization", "Bearer " + t}});
  };
  const json me = json::parse(with("GET", "/api/v1/me", bob).body);
  CHECK(me["name"] == "bob");
  CHECK(me["organiser"] == false);
  CHECK(json::parse(with("GET", "/api/v1/me", org).body)["organiser"] == true);
  const Reply anonymous = http_get(port, "/api/v1/me");
  CHECK(anonymous.status == 401);
  CHECK(anonymous.headers.at("www-authenticate") == "Bearer");
  const Reply wrong = with("GET", "/api/v1/me", bob + "x");
  CHECK(wrong.status == 401);
  CHECK(json::parse(wrong.body)["error"] == "the token is not one of this ladder's");
  const Reply basic = http_request(port, "GET", "/api/v1/leaderboard", {{"Authorization", "Basic Ym9iOmJvYg=="}});
  CHECK(basic.status == 401);
  CHECK_THAT(basic.body, Catch::Contains("Bearer TOKEN"));

  // The rejected version's build log: to its author and the organiser, not to another author.
  const json crashing = get_json(port, "/api/v1/bots/crashing");
  const std::string version = "/api/v1/versions/" + std::to_string(crashing["versions"][0]["id"].get<int>());
  for (const std::string* t : {&bob, &org}) {
    const Reply r = with("GET", version, *t);
    REQUIRE(r.status == 200);
    const json v = json::parse(r.body);
    CHECK_THAT(v["build_log"].get<std::string>(), Catch::Contains(kHostileLog));
    CHECK_THAT(v["fault"].get<std::string>(), Catch::Contains("handshake"));
  }
  const json to_alice = json::parse(with("GET", version, alice).body);
  CHECK_FALSE(to_alice.contains("build_log"));
  CHECK_FALSE(to_alice.contains("fault"));
  CHECK(json::parse(with("GET", "/api/v1/bots/crashing", bob).body)["versions"][0].contains("fault"));

  // Withdraw: its owner or the organiser (the bot has no active version: nothing changes).
  const Reply nobody = http_request(port, "POST", "/api/v1/bots/crashing/withdraw");
  CHECK(nobody.status == 401);
  const Reply other = with("POST", "/api/v1/bots/crashing/withdraw", alice);
  CHECK(other.status == 403);
  CHECK(json::parse(other.body)["error"] == "the bot \"crashing\" belongs to bob, not to alice");
  for (const std::string* t : {&bob, &org}) {
    const Reply r = with("POST", "/api/v1/bots/crashing/withdraw", *t);
    REQUIRE(r.status == 200);
    CHECK(json::parse(r.body) == json{{"bot", "crashing"}, {"withdrawn", false}});
  }
  CHECK(with("POST", "/api/v1/bots/ghost/withdraw", org).status == 404);
  const Reply get = with("GET", "/api/v1/bots/crashing/withdraw", org);
  CHECK(get.status == 405);
  CHECK(get.headers.at("allow") == "POST");
  CHECK(get_json(port, "/api/v1/leaderboard")["rows"].size() == 2);  // nothing withdrawn that played

  // The organiser's views: the queue and the events (the rejection of "crashing" among them).
  CHECK(http_get(port, "/api/v1/queue").status == 401);
  const Reply author_queue = with("GET", "/api/v1/queue", bob);
  CHECK(author_queue.status == 403);
  CHECK(json::parse(author_queue.body)["error"] == "only the organiser's account may read this, not bob");
  const Reply queue = with("GET", "/api/v1/queue", org);
  REQUIRE(queue.status == 200);
  const json queued = json::parse(queue.body);
  for (const json& m : queued["matches"]) {
    CHECK(m["state"] != "counted");
    CHECK(m["seats"].size() == 2);
  }
  CHECK(with("GET", "/api/v1/events", alice).status == 403);
  const Reply events = with("GET", "/api/v1/events?limit=500", org);
  REQUIRE(events.status == 200);
  bool rejected = false;
  const json logged = json::parse(events.body);
  for (const json& e : logged["events"])
    rejected =
        rejected || (e["kind"] == "rejected" && e["message"].get<std::string>().find("crashing") != std::string::npos);
  CHECK(rejected);
  CHECK(with("GET", "/api/v1/events?limit=0", org).status == 400);
}

TEST_CASE("web API: submissions over HTTP (POST /api/v1/submit) and `ladder submit --server`", "[ladder]") {
  SharedLadder& l = shared_ladder();
  const std::uint16_t port = l.port;
  const std::string server = "http://127.0.0.1:" + std::to_string(port);
  const auto token = [&](const std::string& name) {
    Command c = run(referee() + " ladder author add " + quoted(l.ladder) + " " + name + " 2>/dev/null");
    REQUIRE(c.exit_code == 0);
    return c.out.substr(0, 43);
  };
  const std::string carol = token("carol");
  const std::string dave = token("dave");
  const std::string erin = token("erin");
  const std::string boundary = "arena-test-boundary";
  const auto upload = [&](const std::string& t, const std::map<std::string, web::FormPart>& parts) {
    return http_request(
        port, "POST", "/api/v1/submit",
        {{"Authorization", "Bearer " + t}, {"Content-Type", "multipart/form-data; boundary=" + boundary}},
        web::form_data_body(boundary, parts));
  };
  const auto form = [](const std::string& name, const std::string& filename, const std::string& data,
                       const std::string& language = "") {
    std::map<std::string, web::FormPart> parts;
    parts["name"] = web::FormPart{"name", std::nullopt, "", name};
    parts["file"] = web::FormPart{"file", filename, "application/octet-stream", data};
    if (!language.empty()) parts["language"] = web::FormPart{"language", std::nullopt, "", language};
    return parts;
  };
  const auto error_of = [](const Reply& r) {
    INFO(r.body);
    return json::parse(r.body).value("error", std::string());
  };
  const fs::path random_dir = python_random_submission(l.dir / "web-submissions");
  const std::string bot_py = read_text(random_dir / "random_bot.py");
  REQUIRE_FALSE(bot_py.empty());

  // One source file with its language: a version of carol's, built later by the coordinator.
  const Reply single = upload(carol, form("single", "bot.py", bot_py, "python"));
  INFO(single.body);
  REQUIRE(single.status == 202);
  const json made = json::parse(single.body);
  CHECK(made["version"]["label"] == "single@v1");
  CHECK(made["version"]["author"] == "carol");
  CHECK(made["version"]["state"] == "building");
  CHECK(made["version"]["language"] == "python");
  CHECK(made["files"] == 2);  // the file and its bot.json

  // An archive (.tar.gz with a single top folder).
  const fs::path tarball = l.dir / "random.tar.gz";
  REQUIRE(run("tar -czf " + quoted(tarball) + " -C " + quoted(random_dir.parent_path()) + " " +
              random_dir.filename().string())
              .exit_code == 0);
  const Reply archived = upload(carol, form("archived", "random.tar.gz", read_text(tarball)));
  INFO(archived.body);
  CHECK(archived.status == 202);
  CHECK(upload(carol, form("archived", "random.tar.gz", read_text(tarball))).status == 202);  // its version 2
  CHECK(get_json(port, "/api/v1/bots/archived")["versions"].size() == 2);

  // Refusals: no token, another author's bot, a broken archive, no bot.json, a bad field.
  const Reply anonymous = http_request(port, "POST", "/api/v1/submit", {}, "");
  CHECK(anonymous.status == 401);
  const Reply theirs = upload(carol, form("random", "bot.py", bot_py, "python"));
  CHECK(theirs.status == 403);
  CHECK(error_of(theirs) == "the bot \"random\" belongs to alice, not to carol");
  const Reply broken = upload(carol, form("broken", "x.tar.gz", "this is not an archive"));
  CHECK(broken.status == 400);
  CHECK(json::parse(broken.body)["problem"] == "unreadable");
  const fs::path bare = l.dir / "bare.tar";
  REQUIRE(run("tar -cf " + quoted(bare) + " -C " + quoted(random_dir) + " random_bot.py").exit_code == 0);
  const Reply no_manifest = upload(carol, form("bare", "bare.tar", read_text(bare)));
  CHECK(no_manifest.status == 400);
  CHECK_THAT(error_of(no_manifest), Catch::Contains("no bot.json"));
  CHECK_THAT(error_of(upload(carol, form("x", "bot.py", bot_py, "cobol"))), Catch::Contains("language \"cobol\""));
  const Reply hostile = upload(carol, form("<script>", "bot.py", bot_py, "python"));
  CHECK(hostile.status == 400);
  CHECK_THAT(error_of(hostile), Catch::Contains("only letters"));
  CHECK_THAT(error_of(upload(carol, form("x", "../bot.py", bot_py, "python"))), Catch::Contains("without '/'"));
  CHECK_THAT(error_of(http_request(port, "POST", "/api/v1/submit", {{"Authorization", "Bearer " + carol}}, "x")),
             Catch::Contains("multipart/form-data"));
  CHECK(get_json(port, "/api/v1/bots/broken", 404).contains("error"));  // nothing kept of a refusal

  // Over the cap (16 MiB, ladder.json's default, and the form's room): announced, or sent.
  CHECK_THAT(raw_exchange(port, "POST /api/v1/submit HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999\r\n\r\n"),
             Catch::Contains("413"));
  const Reply big = upload(dave, form("big", "big.tar", std::string(17u << 20, 'a')));
  CHECK(big.status == 413);

  // The rate limit: 10 a minute per account, refused or not (carol has sent 10; the server refused
  // dave's oversized upload before it counted).
  CHECK(upload(carol, form("eleventh", "bot.py", bot_py, "python")).status == 429);
  for (int i = 0; i < 10; ++i) CHECK(upload(dave, form("d", "x.tar", "junk")).status == 400);
  const Reply limited = upload(dave, form("d", "x.tar", "junk"));
  CHECK(limited.status == 429);
  CHECK(limited.headers.count("retry-after") == 1);
  CHECK(upload(erin, form("erins", "bot.py", bot_py, "python")).status == 202);  // per account

  // `referee ladder submit PATH --server URL --token T`: the same path from another machine.
  Command c = ladder_cli("submit " + quoted(random_dir) + " --name remote --server " + server + " --token " + erin);
  INFO(c.out);
  CHECK(c.exit_code == 0);
  CHECK_THAT(c.out, Catch::Contains("remote@v1 submitted to " + server));
  c = run("ARENA_LADDER_TOKEN=" + erin + " " + referee() + " ladder submit " + quoted(random_dir) +
          " --name random --server " + server + " 2>&1");
  CHECK(c.exit_code == 7);
  CHECK_THAT(c.out, Catch::Contains("belongs to alice, not to erin"));
  c = ladder_cli("submit " + quoted(random_dir) + " --name remote --server " + server + " --token wrong");
  CHECK(c.exit_code == 9);
  CHECK_THAT(c.out, Catch::Contains("answered 401: the token is not one of this ladder's"));
  c = ladder_cli("submit " + quoted(random_dir) + " --name remote --server https://127.0.0.1:1 --token x");
  CHECK(c.exit_code == 2);
  const fs::path no_manifest_dir = l.dir / "no-manifest";
  fs::create_directories(no_manifest_dir);
  std::ofstream(no_manifest_dir / "bot.py") << "print(1)\n";
  c = ladder_cli("submit " + quoted(no_manifest_dir) + " --name remote --server " + server + " --token " + erin);
  CHECK(c.exit_code == 6);
  CHECK_THAT(c.out, Catch::Contains("no bot.json"));
  c = ladder_cli("submit " + quoted(random_dir) + " --name remote --server http://127.0.0.1:1 --token " + erin);
  CHECK(c.exit_code == 9);
  CHECK_THAT(c.out, Catch::Contains("cannot connect to 127.0.0.1:1"));

  // The coordinator builds what came over HTTP, and it plays.
  const int counted = get_json(port, "/api/v1/status")["matches"]["counted"].get<int>();
  c = ladder_cli("run " + quoted(l.ladder) + " -j 2 --stop-after " + std::to_string(counted + 4));
  INFO(c.out);
  REQUIRE(c.exit_code == 0);
  const json built = get_json(port, "/api/v1/bots/single");
  CHECK(built["versions"][0]["state"] == "active");
  CHECK(get_json(port, "/api/v1/bots/remote")["versions"][0]["state"] == "active");
  CHECK(get_json(port, "/api/v1/bots/archived")["versions"][1]["state"] == "active");  // v1 retired
}

TEST_CASE("web pages: the leaderboard, drawn by the server with every author's text escaped", "[ladder]") {
  const std::uint16_t port = shared_ladder().port;
  const Reply page = get_page(port, "/");
  CHECK_THAT(page.body, Catch::Contains("<title>stellar ladder: leaderboard</title>"));
  // Both active bots, each a row with its interval drawn; the hostile author's name as text.
  CHECK_THAT(page.body, Catch::Contains(R"(<tr data-bot="kit">)") && Catch::Contains(R"(<tr data-bot="random">)"));
  CHECK_THAT(page.body, !Catch::Contains(R"(<tr data-bot="crashing">)"));  // rejected: not on the board
  CHECK_THAT(page.body, Catch::Contains("&lt;img src=x onerror=alert(1)&gt;"));
  CHECK(page.body.find(kHostileAuthor) == std::string::npos);
  CHECK(page.body.find(R"(class="elo-bar")") != std::string::npos);
  CHECK_THAT(page.body, Catch::Contains("W/D/L"));
  CHECK_THAT(page.body, Catch::Contains("fetch('/api/v1/leaderboard'"));  // refreshes itself
  const Reply post = http_request(port, "POST", "/");
  CHECK(post.status == 405);
  CHECK(post.headers.at("allow") == "GET");
  CHECK(http_get(port, "/nothing").status == 404);
}

TEST_CASE("web API and pages: a bot's page, its versions, rating history, head to head and recent games", "[ladder]") {
  const std::uint16_t port = shared_ladder().port;
  const json kit = get_json(port, "/api/v1/bots/kit");
  CHECK(kit["author"] == kHostileAuthor);
  REQUIRE(kit["versions"].size() == 1);
  const json& v = kit["versions"][0];
  CHECK(v["state"] == "active");
  const int games = v["rating"]["games"].get<int>();
  CHECK(games >= 8);
  CHECK(v["faults"] == 0);
  REQUIRE_FALSE(v["ratings"].empty());
  CHECK(v["ratings"].back()["games"] == games);
  CHECK_FALSE(v.contains("first_fault"));  // logs are their authors'
  // Two seats: each game has one opponent, so the records against each bot add up to the rating's.
  int rival_games = 0;
  int rival_wins = 0;
  json against_random;
  for (const json& rival : kit["head_to_head"]) {
    CHECK(rival["opponent"] != "crashing");  // rejected: never played
    CHECK(rival["wins"].get<int>() + rival["draws"].get<int>() + rival["losses"].get<int>() == rival["games"]);
    CHECK(rival["score"].get<double>() >= 0);
    CHECK(rival["score"].get<double>() <= 1);
    rival_games += rival["games"].get<int>();
    rival_wins += rival["wins"].get<int>();
    if (rival["opponent"] == "random") against_random = rival;
  }
  CHECK(rival_games == games);
  CHECK(rival_wins == v["rating"]["wins"]);
  REQUIRE(against_random.is_object());
  REQUIRE(kit["recent"].size() == static_cast<std::size_t>(std::min(games, 20)));
  for (std::size_t i = 1; i < kit["recent"].size(); ++i)
    CHECK(kit["recent"][i - 1]["game"].get<int>() > kit["recent"][i]["game"].get<int>());
  const json random_bot = get_json(port, "/api/v1/bots/random");  // kept: the loop reads inside it
  for (const json& rival : random_bot["head_to_head"]) {
    if (rival["opponent"] == "kit") CHECK(rival["wins"] == against_random["losses"]);
  }

  const Reply page = get_page(port, "/bots/kit");
  CHECK_THAT(page.body, Catch::Contains("<title>stellar ladder: kit</title>"));
  CHECK_THAT(page.body, Catch::Contains(R"(<table id="versions">)") && Catch::Contains("state-active"));
  CHECK_THAT(page.body, Catch::Contains(R"(data-testid="rating-chart")") && Catch::Contains("<polyline"));
  CHECK_THAT(page.body, Catch::Contains(R"(<a class="bot-link" href="/bots/random">random</a>)"));  // head to head
  CHECK(std::regex_search(page.body, std::regex(R"(<a href="/matches/[0-9]+/[01]#step=0">watch</a>)")));
  CHECK_THAT(page.body, Catch::Contains("&lt;img src=x onerror=alert(1)&gt;"));
  CHECK(page.body.find(kHostileAuthor) == std::string::npos);

  // A rejected bot: its state, and its log not on the page (the script asks with a token).
  const Reply crashing = get_page(port, "/bots/crashing");
  CHECK_THAT(crashing.body, Catch::Contains("state-rejected"));
  CHECK_THAT(crashing.body, Catch::Contains(R"(<form id="logs-form")"));
  CHECK(crashing.body.find("alert(") == std::string::npos);
  CHECK_THAT(crashing.body, Catch::Contains("No rating yet"));
  CHECK(http_get(port, "/bots/ghost").status == 404);
  CHECK(http_get(port, "/bots/kit/more").status == 404);
  CHECK(http_get(port, "/bots/").status == 404);
  CHECK(http_request(port, "POST", "/bots/kit").status == 405);

  // The leaderboard and the matches link the bots to their pages.
  CHECK_THAT(get_page(port, "/").body, Catch::Contains(R"(<a class="bot-link" href="/bots/kit">kit</a>)"));
  CHECK_THAT(get_page(port, "/").body, Catch::Contains("link.href = '/bots/' + encodeURIComponent(r.version.bot)"));
  CHECK_THAT(get_page(port, "/matches").body, Catch::Contains(R"(<a class="bot-link" href="/bots/kit">kit@v1</a>)"));
}

TEST_CASE("web pages: the submit page's form posts to the API with the token", "[ladder]") {
  const std::uint16_t port = shared_ladder().port;
  const Reply page = get_page(port, "/submit");
  for (const char* field :
       {R"(id="token" type="password")", R"(name="name")", R"(name="file" type="file")", R"(<select name="language">)",
        R"(<option value="python">)", "fetch('/api/v1/submit'", "Authorization: 'Bearer ' + token", R"(<a href="/">)"})
    CHECK_THAT(page.body, Catch::Contains(field));
  CHECK_THAT(http_get(port, "/").body, Catch::Contains(R"(<a href="/submit">)"));
}

TEST_CASE("web pages: a counted leg's viewer, served from the database", "[ladder]") {
  const std::uint16_t port = shared_ladder().port;
  const json games = get_json(port, "/api/v1/matches?limit=1");
  const json& g = games["games"][0];
  const std::string target =
      "/matches/" + std::to_string(g["match"].get<int>()) + "/" + std::to_string(g["leg"].get<int>());
  const Reply page = http_get(port, target);
  INFO(page.body.substr(0, 2000));
  REQUIRE(page.status == 200);
  CHECK(page.headers.at("content-type") == "text/html; charset=utf-8");
  CHECK_THAT(page.headers.at("content-security-policy"), Catch::Contains("default-src 'none'"));
  CHECK_THAT(page.body, Catch::Contains("<!DOCTYPE html>") && Catch::Contains("stellar"));
  // The hostile author's bot plays every game: nothing of its text reaches the page unescaped.
  CHECK(page.body.find(kHostileAuthor) == std::string::npos);
  CHECK(http_get(port, "/matches/999999/0").status == 404);
  CHECK(http_get(port, "/matches/1/x").status == 400);
  CHECK(http_get(port, "/matches/1").status == 404);
  CHECK(http_request(port, "POST", target).status == 405);
}

TEST_CASE("web pages: the recent matches, filtered, each leg linked to its viewer", "[ladder]") {
  const std::uint16_t port = shared_ladder().port;
  const Reply all = get_page(port, "/matches");
  CHECK_THAT(all.body, Catch::Contains(R"(<option value="kit">kit</option>)"));
  CHECK_THAT(all.body, Catch::Contains(R"(<option value="crash">a fault: crash</option>)"));
  CHECK_THAT(all.body, Catch::Contains("kit@v1") && Catch::Contains("random@v1"));
  CHECK(std::regex_search(all.body, std::regex(R"(<a href="/matches/[0-9]+/[01]#step=0">watch</a>)")));
  const Reply kit = get_page(port, "/matches?bot=kit&fault=");
  CHECK_THAT(kit.body, Catch::Contains(R"(<option value="kit" selected>)"));
  // No game ended by a timeout: an empty table, not an error.
  const Reply none = get_page(port, "/matches?fault=timeout");
  CHECK_THAT(none.body, Catch::Contains("<tbody></tbody>"));
  CHECK(http_get(port, "/matches?bot=ghost").status == 404);
  CHECK(http_get(port, "/matches?fault=happy").status == 400);
  CHECK_THAT(get_page(port, "/").body, Catch::Contains(R"(<a href="/matches">)"));
}

TEST_CASE("web pages: the organiser's page holds no data, its script reads the API with the token", "[ladder]") {
  const std::uint16_t port = shared_ladder().port;
  const Reply page = get_page(port, "/organiser");
  for (const char* part :
       {R"(id="token" type="password")", R"(<table id="workers">)", R"(<table id="queue">)", R"(<table id="rejected">)",
        R"(<table id="events">)", "'/api/v1/versions?state=rejected'", "Authorization: 'Bearer ' + token"})
    CHECK_THAT(page.body, Catch::Contains(part));
  CHECK(page.body.find("crashing") == std::string::npos);  // nothing without the token
}

TEST_CASE("web pages: the account page holds no data, its script reads the account and its bots with the token",
          "[ladder]") {
  const std::uint16_t port = shared_ladder().port;
  const Reply page = get_page(port, "/me");
  for (const char* part : {R"(id="token" type="password")", R"(<table id="bots">)", "'/api/v1/me'", "'/api/v1/bots'",
                           "Authorization: 'Bearer ' + token", "const kTokenKey = 'arena-ladder-token'",
                           "sessionStorage.getItem(kTokenKey)"})
    CHECK_THAT(page.body, Catch::Contains(part));
  CHECK(page.body.find("crashing") == std::string::npos);  // nothing without the token
  // The leaderboard and the submit page link to it.
  CHECK_THAT(get_page(port, "/").body, Catch::Contains(R"(<a href="/me">)"));
  CHECK_THAT(get_page(port, "/submit").body, Catch::Contains(R"(<a href="/me">)"));
}

TEST_CASE("web API: a large upload, received or processed, holds up no other request", "[ladder]") {
  SharedLadder& l = shared_ladder();
  const std::uint16_t port = l.port;
  Command c = run(referee() + " ladder author add " + quoted(l.ladder) + " gus 2>/dev/null");
  REQUIRE(c.exit_code == 0);
  const std::string gus = c.out.substr(0, 43);
  // A near-cap archive (16 MiB unpacked at most): a Python bot and 15 MiB of data that does not
  // compress, so reading, unpacking, checking and packing it is a large upload's real work.
  const fs::path bot = python_random_submission(l.dir / "large");
  std::string data(15u << 20, '\0');
  std::uint64_t x = 0x9e3779b97f4a7c15ull;
  for (char& ch : data) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    ch = static_cast<char>(x & 0xff);
  }
  std::ofstream(bot / "data.bin", std::ios::binary) << data;
  const fs::path tarball = l.dir / "large.tar.gz";
  REQUIRE(run("tar -czf " + quoted(tarball) + " -C " + quoted(bot) + " .").exit_code == 0);
  const std::string boundary = "arena-large-upload";
  std::map<std::string, web::FormPart> parts;
  parts["name"] = web::FormPart{"name", std::nullopt, "", "large"};
  parts["file"] = web::FormPart{"file", "large.tar.gz", "application/gzip", read_text(tarball)};
  const std::string body = web::form_data_body(boundary, parts);
  const std::string head = "POST /api/v1/submit HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer " +
                           gus + "\r\nContent-Type: multipart/form-data; boundary=" + boundary +
                           "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n";

  // Being received: half of it sent, a leaderboard is answered, then the rest.
  {
    RawConnection upload(port);
    REQUIRE(upload.connected());
    REQUIRE(upload.send(head + body.substr(0, body.size() / 2)));
    const auto start = std::chrono::steady_clock::now();
    CHECK(http_get(port, "/api/v1/leaderboard").status == 200);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
    CHECK_FALSE(upload.readable());  // the upload waits for its rest
    REQUIRE(upload.send(body.substr(body.size() / 2)));
    const auto [answer, closed] = upload.read_until_closed(std::chrono::seconds(60));
    INFO(answer.substr(0, 400));
    CHECK(closed);
    CHECK_THAT(answer, Catch::StartsWith("HTTP/1.1 202"));
    CHECK_THAT(answer, Catch::Contains("\"label\":\"large@v1\""));
  }

  // Being processed: once the server has counted it (the rate limit's row, in the database, is
  // written before the form is read), a leaderboard is answered before the upload is: its reading,
  // unpacking, checking and packing hold none of the store's turn.
  auto opened = ladder::Store::open(ladder::Location{l.ladder, ""});
  REQUIRE(opened.ok());
  auto& db = dynamic_cast<ladder::sql::SqlStore&>(*opened.value()).db();
  const auto counted = [&] {
    return db.query("SELECT COUNT(*) FROM submissions WHERE author = ?", {std::string("gus")}).at(0)[0].i64();
  };
  const std::int64_t before = counted();
  RawConnection upload(port);
  REQUIRE(upload.connected());
  REQUIRE(upload.send(head + body));
  while (counted() == before && !upload.readable()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  REQUIRE(counted() == before + 1);
  const auto start = std::chrono::steady_clock::now();
  CHECK(http_get(port, "/api/v1/leaderboard").status == 200);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
  CHECK_FALSE(upload.readable());  // the upload is still being processed
  const auto [answer, closed] = upload.read_until_closed(std::chrono::seconds(60));
  INFO(answer.substr(0, 400));
  CHECK_THAT(answer, Catch::StartsWith("HTTP/1.1 202"));
  CHECK_THAT(answer, Catch::Contains("\"label\":\"large@v2\""));
  CHECK(get_json(port, "/api/v1/bots/large")["versions"].size() == 2);
}

TEST_CASE("web API: the per-author rate limit survives the server's restart", "[ladder]") {
  SharedLadder& l = shared_ladder();
  Command c = run(referee() + " ladder author add " + quoted(l.ladder) + " hal 2>/dev/null");
  REQUIRE(c.exit_code == 0);
  const std::string hal = c.out.substr(0, 43);
  const std::string boundary = "arena-rate";
  std::map<std::string, web::FormPart> parts;
  parts["name"] = web::FormPart{"name", std::nullopt, "", "junk"};
  parts["file"] = web::FormPart{"file", "x.tar", "application/octet-stream", "junk"};
  const auto upload = [&](std::uint16_t port) {
    return http_request(
        port, "POST", "/api/v1/submit",
        {{"Authorization", "Bearer " + hal}, {"Content-Type", "multipart/form-data; boundary=" + boundary}},
        web::form_data_body(boundary, parts));
  };
  std::uint16_t port = 0;
  {
    Background server(referee() + " ladder serve " + quoted(l.ladder) + " --listen 127.0.0.1:0", l.dir / "rate1.log");
    port = served_port(l.dir / "rate1.log");
    for (int i = 0; i < 10; ++i) CHECK(upload(port).status == 400);  // refused archives count too
    CHECK(upload(port).status == 429);
    CHECK(server.stop(SIGTERM) == 128 + SIGTERM);
  }
  Background server(referee() + " ladder serve " + quoted(l.ladder) + " --listen 127.0.0.1:0", l.dir / "rate2.log");
  port = served_port(l.dir / "rate2.log");
  const Reply limited = upload(port);
  INFO(limited.body);
  CHECK(limited.status == 429);
  REQUIRE(limited.headers.count("retry-after") == 1);
  const int wait = std::stoi(limited.headers.at("retry-after"));
  CHECK(wait >= 1);
  CHECK(wait <= 60);
  CHECK_THAT(json::parse(limited.body)["error"].get<std::string>(), Catch::Contains("10 submissions a minute"));
  CHECK(server.stop(SIGTERM) == 128 + SIGTERM);
}
