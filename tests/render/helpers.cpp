#include "tests/render/helpers.hpp"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "referee/bots/process.hpp"
#include "referee/core/hash.hpp"
#include "referee/core/rng.hpp"
#include "referee/games/game.hpp"
#include "referee/match/match.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace arena::testing {

namespace {

std::atomic<int> g_counter{0};

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

replay::Replay random_replay(const std::string& game_name, int seats, std::uint64_t seed) {
  const games::Game* game = games::find_game(game_name);
  REQUIRE(game != nullptr);
  auto config = game->normalize_config(nullptr);
  REQUIRE(config.ok());
  auto created = game->new_game(*config, seed, seats);
  REQUIRE(created.ok());
  auto state = std::move(created).value();
  replay::Replay r;
  r.header.game = game_name;
  r.header.rules_revision = game->info().rules_revision;
  r.header.config = *config;
  r.header.seed = seed;
  r.header.seats = seats;
  for (int s = 0; s < seats; ++s) r.header.bots.push_back({fmt::format("player{}", s), "1", "in-process", nullptr});
  r.header.initial_hash = hash_hex(state->hash());
  Rng rng(seed ^ 0x5eedULL);
  while (!state->is_over()) {
    replay::Step step;
    step.n = static_cast<std::int64_t>(r.steps.size());
    step.seat = state->to_act();
    step.request_id = step.n + 1;
    step.view = state->view(step.seat);
    const auto legal = state->legal_actions();
    step.action = legal[static_cast<std::size_t>(rng.below(legal.size()))];
    REQUIRE(state->apply(step.action).ok());
    step.hash = hash_hex(state->hash());
    r.steps.push_back(std::move(step));
  }
  // The result as a match writes it, so that verify (and so the viewers) accept it.
  replay::FinalResult result;
  result.end = replay::End::finished;
  result.scores = state->scores();
  result.outcome = state->outcome();
  result.game = game_name;
  result.seed = seed;
  result.config = *config;
  result.decisions = static_cast<std::int64_t>(r.steps.size());
  for (const replay::BotInfo& b : r.header.bots) {
    replay::SeatReport seat;
    seat.name = b.name;
    seat.version = b.version;
    seat.command = b.command;
    result.seats.push_back(seat);
  }
  for (const replay::Step& step : r.steps) ++result.seats[static_cast<std::size_t>(step.seat)].decisions;
  replay::settle(result);
  r.footer = replay::Footer{replay::End::finished, replay::to_json(result)};
  return r;
}

void write_replay(const replay::Replay& r, const fs::path& path) {
  auto w = replay::Writer::open(path);
  REQUIRE(w.ok());
  REQUIRE(w->write(replay::to_json(r.header)).ok());
  for (const auto& s : r.steps) REQUIRE(w->write(replay::to_json(s)).ok());
  if (r.footer) REQUIRE(w->write(replay::to_json(*r.footer)).ok());
}

fs::path out_path(const std::string& name) {
  const fs::path dir = fs::path(ARENA_TEST_OUT);
  fs::create_directories(dir);
  return dir / fmt::format("{}-{}-{}", getpid(), g_counter++, name);
}

fs::path play(const std::string& game, const std::vector<std::string>& bots, std::uint64_t seed,
              const std::string& stem) {
  bots::init_process_wide();
  match::Options o;
  o.game = game;
  o.seed = seed;
  for (const auto& b : bots) o.bots.emplace_back(match::BotCommand::parse(b).value());  // the tests' own commands
  o.replay_path = out_path(stem + ".jsonl");
  o.log_dir = fs::path(ARENA_TEST_OUT) / "logs";
  o.log_stem = o.replay_path.stem().string();
  o.working_dir = fs::current_path();
  const char* path = std::getenv("PATH");
  o.env = {fmt::format("PATH={}", path ? path : "/usr/bin:/bin"), "LANG=C.UTF-8"};
  // Generous: a slow, loaded or sanitizer machine must not fail a test.
  o.limits.init_ms = 20000;
  o.limits.decision_ms = 5000;
  auto m = match::play(o);
  REQUIRE(m.ok());
  REQUIRE(m->end != replay::End::interrupted);
  return m->replay;
}

std::string referee() {
  return ARENA_REFEREE;
}
std::string random_bot() {
  return ARENA_RANDOM_BOT;
}
std::string greedy_bot() {
  return ARENA_GREEDY_BOT;
}
std::string faulty_bot(const std::string& args) {
  return fmt::format("{} {}", ARENA_FAULTY_BOT, args);
}

Command show(const std::vector<std::string>& args) {
  const fs::path err = out_path("show.stderr");
  std::string cmd = "env -u NO_COLOR " + quote(referee()) + " show";
  for (const auto& a : args) cmd += " " + quote(a);
  cmd += " 2>" + quote(err.string());
  Command c;
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buf[4096];
  std::size_t n = 0;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) c.out.append(buf, n);
  const int status = pclose(pipe);
  c.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  c.err = read_all(err);
  fs::remove(err);
  return c;
}

std::size_t widest_line(const std::string& text) {
  std::size_t widest = 0;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::size_t w = 0;
    for (char ch : line) w += (static_cast<unsigned char>(ch) & 0xC0) != 0x80 ? 1 : 0;
    widest = std::max(widest, w);
  }
  return widest;
}

}  // namespace arena::testing
