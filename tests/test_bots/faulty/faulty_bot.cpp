// faulty_bot: every way a bot can misbehave, one mode per fault, for the referee's tests
// (tests/match/test_faults.cpp asserts the exact fault each mode produces).
//
//   usage: faulty_bot MODE [--at N] [--delay-ms MS]
//     --at N         the request (1 = the first this bot receives) where the fault happens; default 1
//     --delay-ms MS  the delay of `late` and `slow-init`; default 1000
//
// Apart from its fault the bot plays like random_bot: a uniformly random legal action. Each mode
// is one row of kModes below: a set of hooks called at fixed moments of the protocol.

#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "bot_io.hpp"

using nlohmann::json;

namespace {

struct Options {
  std::string mode;
  int at = 1;
  int delay_ms = 1000;
};

// What a hook sees: the options, the message just read and the answer a correct bot would send
// (null where none is due). A hook that answers by itself, or withholds the answer, sets
// `handled`; otherwise the (possibly modified) answer is sent after it returns.
struct Moment {
  const Options& opt;
  const json& message;
  json answer;
  bool handled = false;
};
using Hook = void (*)(Moment&);

void send(const json& message) {
  std::cout << message.dump() << '\n' << std::flush;
}

using bot_io::sleep_forever;
using bot_io::sleep_ms;
using bot_io::write_all;

// ---- the faults, one function each ---------------------------------------------------------

// sleep, ignore-term: never answer (the referee must time out and kill us).
void never_answer(Moment&) {
  sleep_forever();
}

// crash: say so on stderr, then die by SIGABRT.
void crash(Moment&) {
  std::cerr << "faulty_bot: triggering crash" << std::endl;
  std::abort();
}

// exit-early: read the hello, then leave with exit code 3 without answering.
void exit_early(Moment&) {
  std::exit(3);
}

// garbage: a line that is not JSON.
void garbage(Moment& m) {
  std::cout << "this is not json {oops\n" << std::flush;
  m.handled = true;
}

// illegal: a well-formed action that is not among the legal ones.
void illegal(Moment& m) {
  m.answer["action"] = {{"kind", "take"}, {"slot", 99}};
}

// wrong-id: answer, but with the id of a request that does not exist.
void wrong_id(Moment& m) {
  m.answer["id"] = m.message.at("id").get<std::int64_t>() + 1;
}

// no-read: announce ready without reading the hello, then never read or write again.
void no_read(Moment&) {
  send({{"type", "ready"}, {"protocol", 1}, {"name", "faulty_bot"}, {"version", "no-read"}});
  sleep_forever();
}

// flood-stdout: bytes forever, never a newline.
void flood_stdout(Moment&) {
  std::cout << std::flush;
  static char block[1 << 16];
  std::memset(block, 'x', sizeof block);
  while (write_all(STDOUT_FILENO, block, sizeof block)) {
  }
  std::exit(0);
}

// twice: the right answer, then the same answer again, both lines in one write, so the second is
// already in the referee's pipe when it reads the first (two writes would race its next request:
// then the extra line reads as a wrong-id answer to that request, a fault of another shape).
void twice(Moment& m) {
  std::cout << std::flush;
  const std::string line = m.answer.dump() + '\n';
  const std::string both = line + line;
  write_all(STDOUT_FILENO, both.data(), both.size());
  m.handled = true;
}

// grandchild (at hello): answer, then fork a child that holds stdin/stdout/stderr open for a
// long time, in our process group. The referee must still kill it with us.
void fork_holder(Moment& m) {
  send(m.answer);
  m.handled = true;
  std::cerr << std::flush;
  if (fork() == 0) {
    sleep(300);
    _exit(0);
  }
}
// grandchild (at the request): leave without answering; the child keeps our stdout open.
void exit_quietly(Moment&) {
  std::exit(0);
}

// ignore-term (at start): SIGTERM, SIGINT and SIGHUP are ignored; only SIGKILL ends us.
void ignore_signals(Moment&) {
  signal(SIGTERM, SIG_IGN);
  signal(SIGINT, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
}

// late, slow-init: the right answer, after --delay-ms.
void delay(Moment& m) {
  sleep_ms(m.opt.delay_ms);
}

// flood-stderr (every request): 128 KiB of text on stderr, so at least 3 MiB over a Stellar game.
void flood_stderr(Moment&) {
  static std::string block;
  if (block.empty()) {
    const std::string line = "faulty_bot: flood-stderr, a line of chatter that nobody reads ...........\n";
    while (block.size() + line.size() <= (128u << 10)) block += line;
  }
  write_all(STDERR_FILENO, block.data(), block.size());
}

// after-end (at game_over): one more action line nobody asked for, then a clean exit.
void after_end(Moment&) {
  signal(SIGPIPE, SIG_IGN);  // the referee may have stopped reading: that is no reason to die
  send({{"type", "action"}, {"protocol", 1}, {"id", 1000000}, {"action", {{"kind", "take"}, {"slot", 1}}}});
  std::exit(0);
}

// One row per mode. Hooks: `start` once before reading anything; `hello` at the hello;
// `request` at request --at; `every_request` at each request; `game_over` at the game_over.
struct Mode {
  const char* name;
  const char* summary;
  Hook start = nullptr;
  Hook hello = nullptr;
  Hook request = nullptr;
  Hook every_request = nullptr;
  Hook game_over = nullptr;
};

const Mode kModes[] = {
    {.name = "sleep", .summary = "never answers request --at (sleeps forever)", .request = never_answer},
    {.name = "crash",
     .summary = "prints \"triggering crash\" on stderr, then abort() at request --at",
     .request = crash},
    {.name = "exit-early", .summary = "exits with code 3 before answering the hello", .hello = exit_early},
    {.name = "garbage", .summary = "answers request --at with a line that is not JSON", .request = garbage},
    {.name = "illegal", .summary = "answers request --at with {\"kind\":\"take\",\"slot\":99}", .request = illegal},
    {.name = "wrong-id", .summary = "answers request --at with id + 1", .request = wrong_id},
    {.name = "no-read", .summary = "writes ready without reading, then never reads or writes again", .start = no_read},
    {.name = "flood-stdout",
     .summary = "writes bytes without a newline forever at request --at",
     .request = flood_stdout},
    {.name = "twice", .summary = "answers request --at correctly, twice", .request = twice},
    {.name = "grandchild",
     .summary = "forks a child holding its pipes after the hello, exits 0 at request --at",
     .hello = fork_holder,
     .request = exit_quietly},
    {.name = "ignore-term",
     .summary = "ignores SIGTERM/SIGINT/SIGHUP, never answers request --at",
     .start = ignore_signals,
     .request = never_answer},
    {.name = "late", .summary = "answers request --at correctly after --delay-ms", .request = delay},
    {.name = "slow-init", .summary = "answers the hello after --delay-ms", .hello = delay},
    {.name = "flood-stderr",
     .summary = "plays correctly, writing 128 KiB to stderr per request",
     .every_request = flood_stderr},
    {.name = "after-end",
     .summary = "plays correctly, then writes one more action after game_over",
     .game_over = after_end},
};

const Mode* find_mode(const std::string& name) {
  for (const Mode& m : kModes) {
    if (name == m.name) return &m;
  }
  return nullptr;
}

int usage() {
  std::cerr << "usage: faulty_bot MODE [--at N] [--delay-ms MS]\nmodes:\n";
  for (const Mode& m : kModes) std::cerr << "  " << m.name << ": " << m.summary << '\n';
  return 2;
}

void call(Hook hook, Moment& m) {
  if (hook != nullptr) hook(m);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  Options opt;
  opt.mode = argv[1];
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--at") {
      opt.at = std::atoi(argv[i + 1]);
    } else if (flag == "--delay-ms") {
      opt.delay_ms = std::atoi(argv[i + 1]);
    } else {
      return usage();
    }
  }
  const Mode* mode = find_mode(opt.mode);
  if (mode == nullptr) return usage();

  const json none;
  Moment at_start{opt, none, nullptr};
  call(mode->start, at_start);

  std::mt19937_64 rng(0);
  int requests = 0;
  std::string line;
  while (std::getline(std::cin, line)) {
    const json message = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!message.is_object()) continue;
    const std::string type = message.value("type", "");
    if (type == "hello") {
      rng.seed(static_cast<std::uint64_t>(message.value("seat", 0)));
      Moment m{opt, message, {{"type", "ready"}, {"protocol", 1}, {"name", "faulty_bot"}, {"version", opt.mode}}};
      call(mode->hello, m);
      if (!m.handled) send(m.answer);
    } else if (type == "request") {
      ++requests;
      const json& legal = message.at("legal");
      Moment m{opt,
               message,
               {{"type", "action"},
                {"protocol", 1},
                {"id", message.at("id")},
                {"action", legal[static_cast<std::size_t>(rng() % legal.size())]}}};
      call(mode->every_request, m);
      if (requests == opt.at) call(mode->request, m);
      if (!m.handled) send(m.answer);
    } else if (type == "game_over") {
      Moment m{opt, message, nullptr};
      call(mode->game_over, m);
    }
  }
  return 0;
}
