// fault_injector: wraps any bot and injects at most one fault into its conversation with the
// referee, announcing it on stderr first, so that a test can check that the referee names every
// fault exactly, at the right request, under load (tests/stress).
//
//   usage: fault_injector --seed S [--rate P] [--kinds a,b,...] [--late-ms MS] [--per-match] -- BOT [ARGS...]
//     --seed S       the seed of the plan (required)
//     --rate P       the probability that a fault is planned at all; default 0.5
//     --kinds LIST   the kinds to choose from, comma-separated; default all of them
//     --late-ms MS   how long `late` holds the answer; default 3000 (must exceed the decision limit)
//     --per-match    also mix every request line into the plan (see "The plan" below)
//
// The wrapper starts BOT as its child (same process group, a parent-death signal, stderr
// inherited) and relays lines both ways: referee -> BOT on stdin, BOT -> referee on stdout. It
// waits in poll() on both pipes and never sleeps, so relaying adds no latency beyond two copies.
// When the referee closes our stdin we close BOT's; when BOT's output ends we flush and exit with
// BOT's status (exit code, or 128 + signal).
//
// The plan. With probability P the wrapper injects one fault, at request k (counted among the
// requests this seat receives) uniform in 1..40, of a kind uniform among --kinds; if the game ends
// before request k, nothing is injected. The draw is made request by request (at request n the
// chance is P / (40 - P (n - 1)), which makes every k in 1..40 equally likely, P/40 each). By
// default it depends on the seed alone. A league runs the same command in every match, so with
// --per-match each request line (whose view differs with every deal and every move) is mixed
// into the generator before the draw: each match gets its own plan, and re-running a match with
// the same seed and commands reproduces it.
//
// At request k, before doing anything else, the wrapper writes one line to stderr (one write, so
// it never mixes with BOT's own stderr):
//
//     INJECTED <kind> request=<id>
//
// where <id> is the request's "id". The kinds, and the fault the referee must record for each
// (referee/match: timeout, malformed, illegal, crash, output_limit; docs/protocol.md "Faults"):
//
//   kind          what the wrapper does at request k                     the referee records
//   crash         exits with code 3 instead of answering                 crash ("closed its output", exit code 3)
//   signal        SIGKILLs BOT, then itself                               crash (killed by signal SIGKILL)
//   hang          never answers and reads nothing more                    timeout
//   garbage       answers with a line that is not JSON                    malformed (invalid JSON)
//   illegal       answers {"kind":"__injected__"}, never a legal action   illegal
//   wrong-id      relays BOT's answer with the id + 1000                  malformed (wrong request id)
//   late          relays BOT's answer after --late-ms                     timeout (late-ms > decision limit + bank)
//   close-stdout  closes its stdout, keeps relaying BOT's input           crash ("closed its output")

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bot_io.hpp"

using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;

enum class Kind { crash, signal, hang, garbage, illegal, wrong_id, late, close_stdout };

constexpr std::array<std::pair<Kind, const char*>, 8> kKinds = {{{Kind::crash, "crash"},
                                                                 {Kind::signal, "signal"},
                                                                 {Kind::hang, "hang"},
                                                                 {Kind::garbage, "garbage"},
                                                                 {Kind::illegal, "illegal"},
                                                                 {Kind::wrong_id, "wrong-id"},
                                                                 {Kind::late, "late"},
                                                                 {Kind::close_stdout, "close-stdout"}}};

constexpr int kLastRequest = 40;  // k is drawn in 1..kLastRequest

const char* kind_name(Kind kind) {
  for (const auto& [k, name] : kKinds) {
    if (k == kind) return name;
  }
  return "?";
}

std::optional<Kind> kind_from(std::string_view name) {
  for (const auto& [k, n] : kKinds) {
    if (name == n) return k;
  }
  return std::nullopt;
}

struct Options {
  std::uint64_t seed = 0;
  double rate = 0.5;
  std::vector<Kind> kinds;
  int late_ms = 3000;
  bool per_match = false;
  std::vector<std::string> command;
};

// SplitMix64: a tiny generator with good mixing, and the same numbers everywhere.
std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

// Decides, request by request, whether this is the one to spoil (see "The plan" above).
class Plan {
 public:
  explicit Plan(const Options& o) : o_(o), state_(o.seed) {}

  std::optional<Kind> at_request(int n, std::string_view line) {
    if (decided_ || n > kLastRequest || o_.kinds.empty()) return std::nullopt;
    if (o_.per_match) state_ ^= fnv1a(line);
    const double u = static_cast<double>(splitmix64(state_) >> 11) * 0x1.0p-53;
    const double chance = o_.rate / (kLastRequest - o_.rate * (n - 1));
    if (!(u < chance)) return std::nullopt;
    decided_ = true;
    return o_.kinds[static_cast<std::size_t>(splitmix64(state_) % o_.kinds.size())];
  }

 private:
  const Options& o_;
  std::uint64_t state_;
  bool decided_ = false;
};

int usage(const std::string& problem) {
  std::cerr << "fault_injector: " << problem
            << "\nusage: fault_injector --seed S [--rate P] [--kinds a,b,...] [--late-ms MS] [--per-match]"
               " -- BOT [ARGS...]\n"
               "kinds:";
  for (const auto& [k, name] : kKinds) std::cerr << ' ' << name;
  std::cerr << '\n';
  return 2;
}

std::optional<Options> parse_args(int argc, char** argv, std::string& problem) {
  Options o;
  bool seed_given = false;
  int i = 1;
  for (; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--") {
      ++i;
      break;
    }
    if (flag == "--per-match") {
      o.per_match = true;
      continue;
    }
    if (i + 1 >= argc) {
      problem = "missing value after " + flag;
      return std::nullopt;
    }
    const std::string value = argv[++i];
    char* end = nullptr;
    if (flag == "--seed") {
      o.seed = std::strtoull(value.c_str(), &end, 10);
      seed_given = true;
    } else if (flag == "--rate") {
      o.rate = std::strtod(value.c_str(), &end);
      if (!(o.rate >= 0 && o.rate <= 1)) end = nullptr;
    } else if (flag == "--late-ms") {
      o.late_ms = static_cast<int>(std::strtol(value.c_str(), &end, 10));
      if (o.late_ms < 0) end = nullptr;
    } else if (flag == "--kinds") {
      std::size_t start = 0;
      while (start <= value.size()) {
        const std::size_t comma = std::min(value.find(',', start), value.size());
        const auto kind = kind_from(std::string_view(value).substr(start, comma - start));
        if (!kind) {
          problem = "unknown fault kind in \"" + value + "\"";
          return std::nullopt;
        }
        o.kinds.push_back(*kind);
        start = comma + 1;
      }
      continue;
    } else {
      problem = "unknown option " + flag;
      return std::nullopt;
    }
    if (end == nullptr || *end != '\0' || value.empty()) {
      problem = "bad value \"" + value + "\" for " + flag;
      return std::nullopt;
    }
  }
  for (; i < argc; ++i) o.command.emplace_back(argv[i]);
  if (!seed_given) problem = "--seed is required";
  if (o.command.empty()) problem = "no bot command after --";
  if (!problem.empty()) return std::nullopt;
  if (o.kinds.empty()) {
    for (const auto& [k, name] : kKinds) o.kinds.push_back(k);
  }
  return o;
}

void set_nonblocking(int fd) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

// Starts the bot with pipes on its stdin and stdout; returns its pid, or -1 (errno set).
pid_t start_bot(const std::vector<std::string>& command, int& to_bot, int& from_bot) {
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0) return -1;
  if (::pipe2(out, O_CLOEXEC) != 0) {
    ::close(in[0]);
    ::close(in[1]);
    return -1;
  }
  std::vector<char*> args;
  for (const std::string& a : command) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {
    // The child: dies with us, gets the default SIGPIPE back (ours is ignored), and sees only
    // its pipes on 0 and 1 (dup2 clears close-on-exec; every other pipe end closes at exec).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);
    ::signal(SIGPIPE, SIG_DFL);
    if (::dup2(in[0], 0) < 0 || ::dup2(out[1], 1) < 0) ::_exit(127);
    ::execvp(args[0], args.data());
    const std::string message = "fault_injector: cannot start " + command[0] + ": " + std::strerror(errno) + "\n";
    bot_io::write_all(2, message.data(), message.size());
    ::_exit(127);
  }
  const int saved = errno;
  ::close(in[0]);
  ::close(out[1]);
  if (pid < 0) {
    ::close(in[1]);
    ::close(out[0]);
    errno = saved;
    return -1;
  }
  to_bot = in[1];
  from_bot = out[0];
  return pid;
}

// The relay, with the one fault it may inject.
class Relay {
 public:
  Relay(const Options& o, pid_t bot, int to_bot, int from_bot)
      : o_(o), plan_(o), bot_(bot), to_bot_(to_bot), from_referee_(STDIN_FILENO), from_bot_(from_bot) {}

  // Runs until the bot's output ends; returns the exit code for the wrapper.
  int run() {
    set_nonblocking(STDIN_FILENO);
    set_nonblocking(STDOUT_FILENO);
    set_nonblocking(to_bot_);
    set_nonblocking(from_bot_.fd());
    for (;;) {
      if (held_ && Clock::now() >= release_) {
        queue_for_referee(*held_);
        held_.reset();
      }
      flush(STDOUT_FILENO, to_referee_, stdout_open_);
      flush(to_bot_, to_bot_queue_, bot_input_open_);
      if (from_referee_.eof() && to_bot_queue_.empty() && bot_input_open_) {
        ::close(to_bot_);
        bot_input_open_ = false;
      }
      if (from_bot_.eof() && !held_ && (to_referee_.empty() || !stdout_open_)) break;

      pollfd fds[4];
      nfds_t n = 0;
      if (!from_referee_.eof()) fds[n++] = {STDIN_FILENO, POLLIN, 0};
      if (!from_bot_.eof()) fds[n++] = {from_bot_.fd(), POLLIN, 0};
      if (!to_bot_queue_.empty() && bot_input_open_) fds[n++] = {to_bot_, POLLOUT, 0};
      if (!to_referee_.empty() && stdout_open_) fds[n++] = {STDOUT_FILENO, POLLOUT, 0};
      int timeout = -1;
      if (held_) {
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(release_ - Clock::now()).count();
        timeout = static_cast<int>(std::max<std::int64_t>(0, left));
      }
      if (::poll(fds, n, timeout) < 0 && errno != EINTR) break;
      for (nfds_t i = 0; i < n; ++i) {
        if (fds[i].revents == 0) continue;
        if (fds[i].fd == STDIN_FILENO) read_referee();
        if (fds[i].fd == from_bot_.fd()) read_bot();
      }
    }
    return finish();
  }

 private:
  struct Pending {
    Kind kind;
    std::int64_t id;
  };

  void read_referee() {
    from_referee_.fill();
    std::string line;
    while (from_referee_.pop(line)) on_referee_line(line);
  }

  void read_bot() {
    from_bot_.fill();
    std::string line;
    while (from_bot_.pop(line)) on_bot_line(line);
  }

  void on_referee_line(const std::string& line) {
    const json message = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (message.is_object() && message.value("type", "") == "request") {
      ++requests_;
      const auto id_field = message.find("id");
      const bool has_id = id_field != message.end() && id_field->is_number_integer();
      const std::int64_t id = has_id ? id_field->get<std::int64_t>() : 0;
      if (const auto kind = plan_.at_request(requests_, line)) inject(*kind, id);
    }
    to_bot_queue_.append(line).push_back('\n');
  }

  void on_bot_line(const std::string& line) {
    if (!pending_) {
      queue_for_referee(line);
      return;
    }
    const Pending p = *pending_;
    pending_.reset();
    json answer = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!answer.is_object()) answer = {{"type", "action"}, {"protocol", 1}, {"id", p.id}, {"action", json::object()}};
    switch (p.kind) {
      case Kind::garbage:
        queue_for_referee("this is not json {injected by fault_injector");
        return;
      case Kind::illegal:
        answer["id"] = p.id;
        answer["action"] = {{"kind", "__injected__"}};
        queue_for_referee(answer.dump());
        return;
      case Kind::wrong_id:
        answer["id"] = p.id + 1000;
        queue_for_referee(answer.dump());
        return;
      case Kind::late:
        held_ = line;
        release_ = Clock::now() + std::chrono::milliseconds(o_.late_ms);
        return;
      default:
        queue_for_referee(line);
        return;
    }
  }

  // Announces the fault on stderr, then does it (or arms it for the bot's answer).
  void inject(Kind kind, std::int64_t id) {
    const std::string note = std::string("INJECTED ") + kind_name(kind) + " request=" + std::to_string(id) + "\n";
    bot_io::write_all(STDERR_FILENO, note.data(), note.size());
    switch (kind) {
      case Kind::crash:
        ::_exit(3);  // no answer; the bot sees its input end (and dies with us)
      case Kind::signal:
        ::kill(bot_, SIGKILL);
        ::kill(::getpid(), SIGKILL);
        bot_io::sleep_forever();  // not reached: SIGKILL cannot be caught
      case Kind::hang:
        bot_io::sleep_forever();  // no answer, nothing read: only a kill ends this
      case Kind::close_stdout:
        ::close(STDOUT_FILENO);
        stdout_open_ = false;
        to_referee_.clear();
        return;
      case Kind::garbage:
      case Kind::illegal:
      case Kind::wrong_id:
      case Kind::late:
        pending_ = Pending{kind, id};
        return;
    }
  }

  void queue_for_referee(const std::string& line) {
    if (!stdout_open_) return;
    to_referee_.append(line).push_back('\n');
  }

  // Writes what the descriptor takes now; a reader that is gone drops the queue for good.
  static void flush(int fd, std::string& queue, bool& open) {
    while (open && !queue.empty()) {
      const ssize_t n = ::write(fd, queue.data(), queue.size());
      if (n > 0) {
        queue.erase(0, static_cast<std::size_t>(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
      open = false;  // EPIPE: nobody reads any more
      queue.clear();
    }
  }

  int finish() {
    if (bot_input_open_) ::close(to_bot_);
    if (stdout_open_) ::close(STDOUT_FILENO);
    int status = 0;
    while (::waitpid(bot_, &status, 0) < 0) {
      if (errno != EINTR) return 1;
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 1;
  }

  const Options& o_;
  Plan plan_;
  pid_t bot_;
  int to_bot_;
  bot_io::LineReader from_referee_;
  bot_io::LineReader from_bot_;
  std::string to_bot_queue_;
  std::string to_referee_;
  bool bot_input_open_ = true;
  bool stdout_open_ = true;
  int requests_ = 0;
  std::optional<Pending> pending_;   // a fault that spoils the bot's next answer
  std::optional<std::string> held_;  // `late`: the answer, and when it goes out
  Clock::time_point release_{};
};

}  // namespace

int main(int argc, char** argv) {
  std::string problem;
  const auto options = parse_args(argc, argv, problem);
  if (!options) return usage(problem);
  ::signal(SIGPIPE, SIG_IGN);  // a referee that stopped reading is EPIPE, not our death
  int to_bot = -1, from_bot = -1;
  const pid_t bot = start_bot(options->command, to_bot, from_bot);
  if (bot < 0) {
    std::cerr << "fault_injector: cannot start " << options->command[0] << ": " << std::strerror(errno) << '\n';
    return 127;
  }
  Relay relay(*options, bot, to_bot, from_bot);
  return relay.run();
}
