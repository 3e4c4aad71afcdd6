// `referee ladder`: its flags, and the subcommands about bots (init, submit, withdraw, list, log).
#include "referee/cli/ladder_cmd.hpp"

#include <fmt/format.h>
#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>

#include "referee/core/markup.hpp"
#include "referee/core/private_file.hpp"
#include "referee/ladder/archive.hpp"
#include "referee/ladder/roster.hpp"
#include "referee/league/deal.hpp"
#include "referee/web/client.hpp"
#include "referee/web/multipart.hpp"
#include "referee/web/pages.hpp"

namespace arena::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kDatabaseFile = "ladder.db";

std::string login_name() {
  if (const char* user = std::getenv("USER"); user != nullptr && *user != '\0') return user;
  if (const passwd* pw = ::getpwuid(::geteuid()); pw != nullptr) return pw->pw_name;
  return fmt::format("uid{}", ::geteuid());
}

int run_init(const CLI::App& cmd, const LadderArgs& a) {
  ladder::LadderConfig c;
  if (!a.from.empty()) {
    auto j = read_json_arg(a.from, "--from");
    if (!j) return ladder_fails("init", kUsage, j.error());
    auto read = ladder::config_from_json(*j);
    if (!read) {
      say("referee ladder init: {}: {}\n", a.from, read.error());
      return kUsage;
    }
    c = std::move(*read);
  } else {
    c.game = games::default_game_name();
  }
  if (!a.game.empty()) c.game = a.game;
  if (a.seats > 0) c.seats = a.seats;
  if (cmd.count("--config") > 0) {
    auto config = read_config(a.config);
    if (!config) return ladder_fails("init", kUsage, config.error());
    c.config = *config;
  }
  if (a.no_duplicate) c.duplicate = false;
  if (a.seat_configs) c.seat_configs = true;
  if (a.placement_games >= 0) c.placement_games = a.placement_games;
  if (a.check_games >= 0) c.check_games = a.check_games;
  // The match options given on the command line: time limits and the sandbox.
  for (const char* flag : {"--init-ms", "--decision-ms", "--time-bank-ms", "--max-line-bytes"}) {
    if (cmd.count(flag) > 0) {
      c.limits = a.match.limits;
      break;
    }
  }
  if (cmd.count("--time-scale") > 0) c.time_scale = a.match.time_scale;
  if (!a.match.sandbox.tier.empty()) c.tier = parse_enum<bots::Tier>(a.match.sandbox.tier);
  c.sandbox = a.match.sandbox.limits;
  if (!a.match.sandbox.address_space_mb.empty()) c.sandbox.address_space_mb = a.match.sandbox.address_space_mb.front();
  auto normalized = ladder::normalize(std::move(c));
  if (!normalized) return ladder_fails("init", kUsage, normalized.error());
  std::error_code ec;
  if (fs::exists(fs::path(a.dir) / ladder::kConfigFile, ec)) {
    say("referee ladder init: {} is a ladder already ({} is there); nothing changed\n", a.dir, ladder::kConfigFile);
    return kUsage;
  }
  if (auto made = files::make_private_dirs(a.dir); !made) return ladder_fails("init", kUsage, made.error());
  int exit = kFinished;
  auto store = open_ladder_store(a, true, exit);
  if (!store) return ladder_fails("init", exit, store.error());
  if (auto st = (*store)->put_setting(ladder::kConfigFile, ladder::to_json(*normalized).dump()); !st)
    return ladder_fails("init", kDatabase, st.error());
  if (auto st = ladder::write_config(a.dir, *normalized); !st) return ladder_fails("init", kUsage, st.error());
  say_to(stdout, "ladder {}: {} with {} seats a table{}, database {}\n", a.dir, normalized->game, normalized->seats,
         normalized->duplicate ? ", duplicate deals" : "",
         a.db.empty() && std::getenv("ARENA_LADDER_DB") == nullptr ? (fs::path(a.dir) / kDatabaseFile).string()
                                                                   : std::string("PostgreSQL"));
  say_to(stdout, "next: referee ladder submit {} PATH --name NAME; referee ladder run {}\n", a.dir, a.dir);
  return kFinished;
}

// `submit --server`: the files read and checked here, packed (a .tar.zst) and sent to the
// server's POST /api/v1/submit, which checks them again with its ladder's limits.
int submit_remote(const LadderArgs& a) {
  if (!a.dir.empty() && !a.path.empty()) {
    say("referee ladder submit: with --server give only PATH (the server knows its ladder), not {} and {}\n", a.dir,
        a.path);
    return kUsage;
  }
  const std::string path = a.path.empty() ? a.dir : a.path;
  auto url = web::parse_url(a.server);
  if (!url) return ladder_fails("submit", kUsage, url.error());
  std::string token = a.token;
  if (const char* env = std::getenv("ARENA_LADDER_TOKEN"); token.empty() && env != nullptr) token = env;
  if (token.empty()) {
    say("referee ladder submit: --server needs an account's token: --token T or ARENA_LADDER_TOKEN "
        "(`referee ladder author add` on the server's machine)\n");
    return kUsage;
  }
  auto submission = ladder::read_submission(path, ladder::ArchiveLimits{});
  if (!submission) {
    say("referee ladder submit: {}: refused: {}\n", path, terminal_safe(submission.error().message));
    return kSubmissionRefused;
  }
  const ladder::Bytes packed = ladder::pack(submission->files);
  std::map<std::string, web::FormPart> form;
  form["name"] = web::FormPart{"name", std::nullopt, "", a.name};
  form["file"] =
      web::FormPart{"file", "submission.tar.zst", "application/zstd", std::string(packed.begin(), packed.end())};
  // A boundary that the packed bytes do not hold.
  std::string boundary = fmt::format("arena-{:x}", league::unix_ms());
  while (form["file"].data.find(boundary) != std::string::npos) boundary += "x";
  auto reply = web::http_request(
      *url, "POST", "/api/v1/submit",
      {{"Authorization", "Bearer " + token}, {"Content-Type", "multipart/form-data; boundary=" + boundary}},
      web::form_data_body(boundary, form), std::chrono::seconds(300));
  if (!reply) return ladder_fails("submit", kServer, reply.error());
  const json j = json::parse(reply->body, nullptr, false);
  const std::string why = j.is_object() && j.contains("error") && j["error"].is_string()
                              ? j["error"].get<std::string>()
                              : fmt::format("an answer that is not the API's ({} bytes)", reply->body.size());
  switch (reply->status) {
    case 202: {
      if (!j.is_object() || !j.contains("version") || !j["version"].is_object()) break;
      say_to(stdout, "{} submitted to {} ({} files, {} bytes); the ladder builds and checks it\n",
             terminal_safe(j["version"].value("label", std::string("?"))), a.server, j.value("files", 0),
             j.value("bytes", 0));
      return kFinished;
    }
    case 400:
    case 413:
      say("referee ladder submit: {}: {}\n", path, terminal_safe(why));
      return kSubmissionRefused;
    case 403:
      say("referee ladder submit: {}; choose another --name\n", terminal_safe(why));
      return kNotYours;
    default:
      break;
  }
  say("referee ladder submit: {} answered {}: {}\n", a.server, reply->status, terminal_safe(why));
  return kServer;
}

int run_submit(const LadderArgs& a) {
  if (!a.server.empty()) return submit_remote(a);
  if (a.dir.empty() || a.path.empty()) {
    say("referee ladder submit: give DIR and PATH (or PATH and --server)\n");
    return kUsage;
  }
  if (auto st = check_name(a.name, "--name"); !st) {
    say("referee ladder submit: {}\n", terminal_safe(st.error()));
    return kUsage;
  }
  int exit = kFinished;
  auto store = open_ladder_store(a, false, exit);
  if (!store) return ladder_fails("submit", exit, store.error());
  auto config = ladder_config(a, store->get());
  if (!config) return ladder_fails("submit", kUsage, config.error());
  auto submission = ladder::read_submission(a.path, ladder::submission_limits(*config));
  if (!submission) {
    say("referee ladder submit: {}: refused: {}\n", a.path, terminal_safe(submission.error().message));
    return kSubmissionRefused;
  }
  const std::string author = a.author.empty() ? login_name() : a.author;
  auto added = web::add_submission(**store, *config, a.name, author, std::move(*submission), league::unix_ms());
  if (!added) {
    const web::SubmitError& e = added.error();
    switch (e.problem) {
      case web::SubmitProblem::bad_name:
        say("referee ladder submit: {}\n", terminal_safe(e.message));
        return kUsage;
      case web::SubmitProblem::refused:
        say("referee ladder submit: {}: refused: {}\n", a.path, terminal_safe(e.message));
        return kSubmissionRefused;
      case web::SubmitProblem::not_yours:
        say("referee ladder submit: {}; choose another --name\n", terminal_safe(e.message));
        return kNotYours;
      case web::SubmitProblem::database:
        say("referee ladder submit: {}\n", e.message);
        return kDatabase;
    }
  }
  say_to(stdout, "{} submitted ({} files, {} bytes); `referee ladder run` builds and checks it\n",
         ladder::version_label(added->version), added->files, added->bytes);
  return kFinished;
}

int run_withdraw(const LadderArgs& a) {
  int exit = kFinished;
  auto store = open_ladder_store(a, false, exit);
  if (!store) return ladder_fails("withdraw", exit, store.error());
  const std::string author = a.author.empty() ? login_name() : a.author;
  auto versions = (*store)->versions();
  if (!versions) return ladder_fails("withdraw", kDatabase, versions.error());
  bool known = false;
  for (const ladder::VersionRow& v : *versions) {
    if (v.bot != a.name) continue;
    known = true;
    if (v.author != author) {
      say("referee ladder withdraw: the bot \"{}\" belongs to {}, not to {}\n", a.name, terminal_safe(v.author),
          terminal_safe(author));
      return kNotYours;
    }
  }
  if (!known) {
    say("referee ladder withdraw: the ladder has no bot \"{}\"\n", terminal_safe(a.name));
    return kUsage;
  }
  auto done = (*store)->withdraw(a.name, league::unix_ms());
  if (!done) return ladder_fails("withdraw", kDatabase, done.error());
  if (*done) {
    say_to(stdout, "{}: withdrawn; its matches and ratings stay in the history\n", a.name);
  } else {
    say_to(stdout, "{}: it has no active version; nothing changed\n", a.name);
  }
  return kFinished;
}

int run_list(const LadderArgs& a) {
  int exit = kFinished;
  auto store = open_ladder_store(a, false, exit);
  if (!store) return ladder_fails("list", exit, store.error());
  auto versions = (*store)->versions();
  if (!versions) return ladder_fails("list", kDatabase, versions.error());
  say_to(stdout, "{:<24} {:>4}  {:<9} {:<16} {:<16} {}\n", "bot", "ver", "state", "author", "submitted (UTC)",
         "why rejected");
  for (const ladder::VersionRow& v : *versions) {
    if (!a.name.empty() && v.bot != a.name) continue;
    say_to(stdout, "{:<24} {:>4}  {:<9} {:<16} {:<16} {}\n", terminal_safe(v.bot), v.number, enum_name(v.state),
           terminal_safe(v.author), web::minute_text(v.submitted_ms), terminal_safe(v.fault));
  }
  return kFinished;
}

int run_log(const LadderArgs& a) {
  int exit = kFinished;
  auto store = open_ladder_store(a, false, exit);
  if (!store) return ladder_fails("log", exit, store.error());
  auto versions = (*store)->versions();
  if (!versions) return ladder_fails("log", kDatabase, versions.error());
  const ladder::VersionRow* found = nullptr;
  for (const ladder::VersionRow& v : *versions) {
    if (v.bot == a.name && (a.version == 0 ? (found == nullptr || v.number > found->number) : v.number == a.version))
      found = &v;
  }
  if (found == nullptr) {
    say("referee ladder log: no version {}of \"{}\"\n", a.version == 0 ? "" : fmt::format("{} ", a.version),
        terminal_safe(a.name));
    return kUsage;
  }
  say_to(stdout, "{} ({}){}{}\n{}", ladder::version_label(*found), enum_name(found->state),
         found->fault.empty() ? "" : ": ", terminal_safe(found->fault), terminal_safe(found->build_log));
  // Its storage between matches (docs/ladder.md), when the ladder keeps one.
  auto storage = (*store)->storage(found->id);
  if (!storage) return ladder_fails("log", kDatabase, storage.error());
  if (!storage->empty()) say_to(stdout, "storage: {} bytes (packed)\n", storage->size());
  return kFinished;
}

}  // namespace

Result<ladder::Location> ladder_location(const LadderArgs& a, bool creating) {
  ladder::Location where;
  where.folder = a.dir;
  where.postgres = a.db;
  if (where.postgres.empty()) {
    if (const char* env = std::getenv("ARENA_LADDER_DB"); env != nullptr) where.postgres = env;
  }
  if (!where.postgres.empty()) return where;
  if (a.dir.empty()) return fail(std::string("give the ladder folder, or --db for a PostgreSQL ladder"));
  std::error_code ec;
  if (!creating && !fs::exists(fs::path(a.dir) / kDatabaseFile, ec)) {
    if (fs::exists(fs::path(a.dir) / ladder::kConfigFile, ec)) {
      return fail(fmt::format("{} keeps its database in PostgreSQL (it has no {}): give --db or set ARENA_LADDER_DB",
                              a.dir, kDatabaseFile));
    }
    return fail(fmt::format("{} is not a ladder folder (`referee ladder init {}` makes one)", a.dir, a.dir));
  }
  return where;
}

int ladder_fails(std::string_view command, int exit, const std::string& message) {
  say("referee ladder {}: {}\n", command, message);
  return exit;
}

Result<std::unique_ptr<ladder::Store>> open_ladder_store(const LadderArgs& a, bool creating, int& exit) {
  auto where = ladder_location(a, creating);
  if (!where) {
    exit = kUsage;
    return fail(where.error());
  }
  auto store = ladder::Store::open(*where);
  if (!store) {
    exit = kDatabase;
    return fail(store.error());
  }
  return std::move(*store);
}

std::optional<OpenedLadder> open_ladder(const LadderArgs& a, std::string_view command, int& exit) {
  auto store = open_ladder_store(a, false, exit);
  if (!store) {
    ladder_fails(command, exit, store.error());
    return std::nullopt;
  }
  auto config = ladder_config(a, store->get());
  if (!config) {
    exit = ladder_fails(command, kUsage, config.error());
    return std::nullopt;
  }
  return OpenedLadder{std::move(*store), std::move(*config)};
}

Result<ladder::LadderConfig> ladder_config(const LadderArgs& a, ladder::Store* store) {
  if (!a.dir.empty()) return ladder::read_config(a.dir);
  if (store == nullptr) return fail(std::string("no ladder folder given"));
  auto text = store->setting(ladder::kConfigFile);
  if (!text) return fail(text.error());
  if (!*text) return fail(std::string("the database holds no ladder.json: is it a ladder's? (`referee ladder init`)"));
  const json j = json::parse(**text, nullptr, false);
  auto c = ladder::config_from_json(j);
  if (!c) return fail(fmt::format("the database's ladder.json: {}", c.error()));
  return ladder::normalize(std::move(*c));
}

RunCommand add_ladder(CLI::App& command) {
  auto a = std::make_shared<LadderArgs>();
  command.require_subcommand(1);
  auto db = [a](CLI::App* c) {
    c->add_option("--db", a->db,
                  "The ladder's PostgreSQL database (postgresql://... or a libpq connection string; default: "
                  "$ARENA_LADDER_DB, else SQLite in the folder)");
  };
  CLI::App* init = command.add_subcommand("init", "Make a new ladder folder: ladder.json and its database");
  init->add_option("dir", a->dir, "The ladder folder (created)")->required();
  init->add_option("--from", a->from, "Start from this ladder.json's settings (JSON, @FILE or a path)");
  init->add_option("--game", a->game, "The game (`referee games`)");
  init->add_option("--seats", a->seats, "Seats per table (default: the game's minimum)")->check(within(bounds::kSeats));
  init->add_option("--config", a->config, "The game's configuration (JSON, @FILE or a path)");
  init->add_flag("--no-duplicate", a->no_duplicate, "One leg per deal instead of one per seat rotation");
  init->add_flag("--seat-configs", a->seat_configs,
                 "Versions may carry their own seat configuration (bot.json \"seat_config\", checked by the game)");
  init->add_option("--placement-games", a->placement_games, "A new version's games before it counts as placed");
  init->add_option("--check-games", a->check_games, "Conformance games per seat and opponent after a build");
  add_match_options(init, a->match);
  db(init);

  CLI::App* submit =
      command.add_subcommand("submit", "Submit a bot's next version (a folder or an archive with bot.json)");
  submit->add_option("dir", a->dir, "The ladder folder (none with --server)");
  submit->add_option("path", a->path, "A folder, or a .tar, .tar.gz or .tar.zst file");
  submit->add_option("--name", a->name, "The bot's name (its first version makes it yours)")->required();
  auto* by = submit->add_option("--author", a->author, "Who submits (default: the login name)");
  submit
      ->add_option("--server", a->server,
                   "Submit to the ladder's web server (http://HOST:PORT) instead of its folder; the token's account "
                   "is the author")
      ->excludes(by);
  submit->add_option("--token", a->token, "With --server: the account's token (default: $ARENA_LADDER_TOKEN)");
  db(submit);

  CLI::App* withdraw = command.add_subcommand("withdraw", "Take a bot out of matchmaking (its history stays)");
  withdraw->add_option("dir", a->dir, "The ladder folder")->required();
  withdraw->add_option("name", a->name, "The bot")->required();
  withdraw->add_option("--author", a->author, "Who asks (default: the login name)");
  db(withdraw);

  CLI::App* list = command.add_subcommand("list", "List the bots and their versions");
  list->add_option("dir", a->dir, "The ladder folder")->required();
  list->add_option("name", a->name, "Only this bot");
  db(list);

  CLI::App* log = command.add_subcommand("log", "Print a version's build and check log");
  log->add_option("dir", a->dir, "The ladder folder")->required();
  log->add_option("name", a->name, "The bot")->required();
  log->add_option("--version", a->version, "Its version number (default: the latest)");
  db(log);

  CLI::App* run = command.add_subcommand("run", "Run the ladder: builds, audits, ratings, matchmaking and -j workers");
  run->add_option("dir", a->dir, "The ladder folder")->required();
  run->add_option("-j,--workers", a->workers, "Local workers (default 1; 0: only coordinate)")
      ->check(CLI::Range(0, 1024));
  run->add_flag("--affinity", a->affinity, kAffinityHelp);
  run->add_option("--opponent", a->opponents,
                  "An opponent of the conformance check after a build (repeatable; default: the sample bots)");
  run->add_option("--stop-after", a->stop_after, "Stop once this many matches are counted (0: run until stopped)");
  run->add_option("--idle-exit", a->idle_exit_s,
                  "Stop after this many seconds without a build, a match or a queued match (0: never)");
  run->add_option("--listen", a->listen,
                  "Also serve the ladder's HTTP API on HOST:PORT or PORT (HOST default 127.0.0.1; 0: any free port)");
  db(run);

  CLI::App* worker = command.add_subcommand("worker", "Play the ladder's matches on this machine");
  worker->add_option("dir", a->dir, "The ladder folder (not needed with --db)");
  worker->add_option("-j,--workers", a->workers, "Workers (default: the usable CPUs)")->check(CLI::Range(1, 1024));
  worker->add_flag("--affinity", a->affinity, kAffinityHelp);
  worker->add_option("--cache", a->cache,
                     "Where versions are unpacked and matches played (default: logs/ladder-worker)");
  worker->add_option("--idle-exit", a->idle_exit_s, "Stop after this many seconds with nothing to play (0: never)");
  db(worker);

  CLI::App* serve = command.add_subcommand("serve", "Serve the ladder's HTTP API (without the coordinator)");
  serve->add_option("dir", a->dir, "The ladder folder")->required();
  serve->add_option("--listen", a->listen,
                    "HOST:PORT or PORT (default 127.0.0.1:8080; HOST default 127.0.0.1; 0: any free port)");
  db(serve);

  CLI::App* author = command.add_subcommand("author", "The HTTP API's accounts: an author's or the organiser's token");
  author->require_subcommand(1);
  CLI::App* author_add =
      author->add_subcommand("add", "Add an account and print its token (once: only its hash is kept)");
  author_add->add_option("dir", a->dir, "The ladder folder")->required();
  author_add->add_option("name", a->name, "The account's name: the author name its bots carry")->required();
  author_add->add_flag("--organiser", a->organiser, "The organiser's account: may act on every bot");
  db(author_add);
  CLI::App* author_list = author->add_subcommand("list", "List the accounts and their roles");
  author_list->add_option("dir", a->dir, "The ladder folder")->required();
  db(author_list);

  CLI::App* status = command.add_subcommand("status", "The leaderboard, the queue, the workers and the last matches");
  status->add_option("dir", a->dir, "The ladder folder")->required();
  status->add_option("--recent", a->recent, "How many recent matches and events (default 10)");
  db(status);

  CLI::App* out = command.add_subcommand("export", "Write the ladder as a league folder (standings, journal, replays)");
  out->add_option("dir", a->dir, "The ladder folder")->required();
  out->add_option("--out", a->out, "The folder to write (new or empty)")->required();
  db(out);

  return [a, init, submit, withdraw, list, log, run, worker, serve, author_add, author_list, status,
          out](const CLI::App&) {
    if (init->parsed()) return run_init(*init, *a);
    if (submit->parsed()) return run_submit(*a);
    if (withdraw->parsed()) return run_withdraw(*a);
    if (list->parsed()) return run_list(*a);
    if (log->parsed()) return run_log(*a);
    if (run->parsed()) return run_ladder_run(*a);
    if (worker->parsed()) return run_ladder_worker(*a);
    if (serve->parsed()) return run_ladder_serve(*a);
    if (author_add->parsed()) return run_ladder_author_add(*a);
    if (author_list->parsed()) return run_ladder_author_list(*a);
    if (status->parsed()) return run_ladder_status(*a);
    if (out->parsed()) return run_ladder_export(*a);
    return static_cast<int>(kUsage);
  };
}

}  // namespace arena::cli
