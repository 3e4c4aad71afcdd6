#include "tests/render/replay_fuzz.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <nlohmann/json.hpp>
#include <sstream>

#include "referee/core/hash.hpp"
#include "referee/core/rng.hpp"
#include "referee/games/game.hpp"
#include "referee/render/frames.hpp"
#include "referee/render/html.hpp"
#include "referee/render/terminal.hpp"
#include "referee/replay/replay.hpp"
#include "referee/replay/result.hpp"

namespace arena::fuzz {

using nlohmann::json;

std::string played_replay(const std::string& game_name, std::uint64_t seed) {
  const games::Game* game = games::find_game(game_name);
  if (game == nullptr) throw std::runtime_error("unknown game " + game_name);
  const int seats = game->info().min_seats;
  auto config = game->normalize_config(nullptr);
  if (!config) throw std::runtime_error(config.error());
  auto created = game->new_game(*config, seed, seats);
  if (!created) throw std::runtime_error(created.error());
  auto state = std::move(created).value();
  replay::Header h;
  h.protocol = 2;
  h.referee_version = "fuzz";
  h.game = game_name;
  h.rules_revision = game->info().rules_revision;
  h.config = *config;
  h.seed = seed;
  h.seats = seats;
  for (int s = 0; s < seats; ++s) h.bots.push_back({fmt::format("player{}", s), "1", "./bot --fast", nullptr, 2});
  h.limits = {{"init_ms", 10000}, {"decision_ms", 1000}};
  h.initial_hash = hash_hex(state->hash());
  h.started = "2026-01-01T00:00:00Z";
  h.extra = {{"sandbox", {{"tier", "strict"}}}};
  std::string text = games::dump_line(replay::to_json(h)) + '\n';
  Rng rng(seed ^ 0xf022ULL);
  // The result as a match writes it (replay/result.hpp), so that the base replay verifies.
  replay::FinalResult result;
  result.end = replay::End::finished;
  result.game = game_name;
  result.seed = seed;
  result.config = *config;
  for (const replay::BotInfo& b : h.bots) {
    replay::SeatReport seat;
    seat.name = b.name;
    seat.version = b.version;
    seat.command = b.command;
    seat.protocol = b.protocol;
    result.seats.push_back(seat);
  }
  std::string view;
  for (std::int64_t n = 0; !state->is_over(); ++n) {
    replay::Step step;
    step.n = n;
    step.seat = state->to_act();
    step.request_id = n + 1;
    view.clear();
    state->write_view_v2(step.seat, view);
    step.view_hash = hash_hex(stable_hash(view));
    const auto legal = state->legal_actions();
    step.action = legal[static_cast<std::size_t>(rng.below(legal.size()))];
    if (auto st = state->apply(step.action); !st) throw std::runtime_error(st.error());
    step.hash = hash_hex(state->hash());
    step.time_ms = 0.25 * static_cast<double>(n % 7);
    step.cpu_ms = 0.125;
    if (n % 5 == 0) step.stderr_lines = {"thinking", "done"};
    if (n % 9 == 0) step.debug = "d";
    text += games::dump_line(replay::to_json(step)) + '\n';
    replay::SeatReport& seat = result.seats[static_cast<std::size_t>(step.seat)];
    ++seat.decisions;
    seat.total_ms += step.time_ms;
    seat.max_ms = std::max(seat.max_ms, step.time_ms);
    seat.cpu_ms += step.cpu_ms;
    ++result.decisions;
  }
  result.scores = state->scores();
  result.outcome = state->outcome();
  replay::settle(result);
  text += games::dump_line(replay::to_json(replay::Footer{replay::End::finished, replay::to_json(result)})) + '\n';
  return text;
}

namespace {

constexpr const char* kMark = "\x01MARK\x01";

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + '\n';
  return out;
}

// Every value of `j` (objects and arrays too), as JSON pointers, at most `cap` of them.
void paths(const json& j, const json::json_pointer& at, std::vector<json::json_pointer>& out, std::size_t cap) {
  if (out.size() >= cap) return;
  out.push_back(at);
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) paths(it.value(), at / it.key(), out, cap);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) paths(j[i], at / i, out, cap);
  }
}

// The raw text of a replacement value: other types, edge and huge numbers, deep nesting,
// invalid UTF-8.
std::string replacement(const json& old, Rng& rng) {
  static const char* const kTexts[] = {"-1",
                                       "0",
                                       "1",
                                       "2",
                                       "3",
                                       "7",
                                       "255",
                                       "65536",
                                       "2147483648",
                                       "-2147483649",
                                       "9223372036854775807",
                                       "-9223372036854775808",
                                       "18446744073709551615",
                                       "18446744073709551616",
                                       "99999999999999999999999",
                                       "1e300",
                                       "-1e300",
                                       "1e400",
                                       "0.5",
                                       "-0.0",
                                       "true",
                                       "false",
                                       "null",
                                       "\"\"",
                                       "\"x\"",
                                       "\"step\"",
                                       "\"header\"",
                                       "\"footer\"",
                                       "\"finished\"",
                                       "\"fault\"",
                                       "\"\xff\xfe\"",
                                       "\"a\xc3\"",
                                       "[]",
                                       "{}",
                                       "[1,2,3]",
                                       "{\"a\":1}",
                                       "[null]",
                                       "[[[]]]",
                                       "{\"type\":\"step\"}",
                                       "\"0\"",
                                       "\"-1\""};
  const std::uint64_t pick = rng.below(std::size(kTexts) + 4);
  if (pick < std::size(kTexts)) return kTexts[pick];
  switch (pick - std::size(kTexts)) {
    case 0: {  // nested deeper than any reader allows
      const std::size_t depth = 200 + rng.below(20000);
      return std::string(depth, '[') + std::string(depth, ']');
    }
    case 1:  // the old value as a string
      return json(old.dump()).dump();
    case 2:  // the old number moved a little
      if (old.is_number()) return json(old.get<double>() + static_cast<double>(rng.below(5)) - 2).dump();
      return "-1";
    default:  // a long string
      return json(std::string(1 + rng.below(100000), 'z')).dump();
  }
}

std::string mutate_field(std::vector<std::string>& lines, Rng& rng, std::string& what) {
  const std::size_t li = rng.below(lines.size());
  json j = json::parse(lines[li], nullptr, false);
  if (j.is_discarded()) return join_lines(lines);
  std::vector<json::json_pointer> all;
  paths(j, json::json_pointer(), all, 4096);
  const json::json_pointer at = all[rng.below(all.size())];
  const std::uint64_t kind = rng.below(4);
  if (kind == 0 && !at.empty() && j.at(at.parent_pointer()).is_object()) {  // drop the field
    j.at(at.parent_pointer()).erase(at.back());
    what = fmt::format("line {}: drop {}", li + 1, at.to_string());
    lines[li] = j.dump();
  } else if (kind == 1 && !at.empty() && j.at(at.parent_pointer()).is_object()) {  // a second copy, other value
    const std::string value = replacement(j.at(at), rng);
    std::string text = j.dump();
    const std::string key = json(at.back()).dump();
    const auto pos = text.find(key + ':');
    if (pos != std::string::npos) text.insert(pos, key + ':' + value + ',');
    what = fmt::format("line {}: duplicate {}", li + 1, at.to_string());
    lines[li] = text;
  } else if (kind == 2 && j.is_object()) {  // the fields in reverse order
    std::string text = "{";
    std::vector<std::string> parts;
    for (auto it = j.begin(); it != j.end(); ++it) parts.push_back(json(it.key()).dump() + ':' + it.value().dump());
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) text += (it == parts.rbegin() ? "" : ",") + *it;
    lines[li] = text + '}';
    what = fmt::format("line {}: fields reversed", li + 1);
  } else {  // another value
    const std::string value = replacement(j.at(at), rng);
    if (at.empty()) {
      lines[li] = value;
    } else {
      j.at(at) = kMark;
      std::string text = j.dump();
      const std::string mark = json(kMark).dump();
      text.replace(text.find(mark), mark.size(), value);
      lines[li] = text;
    }
    what = fmt::format("line {}: {} := {}", li + 1, at.to_string(), value.substr(0, 40));
  }
  return join_lines(lines);
}

}  // namespace

std::string mutate(const std::string& text, std::uint64_t seed, std::string& what) {
  Rng rng(seed);
  std::vector<std::string> lines = split_lines(text);
  std::string out = text;
  switch (rng.below(10)) {
    case 0: {
      const std::size_t flips = 1 + rng.below(8);
      for (std::size_t i = 0; i < flips; ++i) out[rng.below(out.size())] ^= static_cast<char>(1 + rng.below(255));
      what = fmt::format("flip {} bytes", flips);
      return out;
    }
    case 1: {
      const std::size_t at = rng.below(out.size());
      out.resize(at);
      what = fmt::format("truncate at byte {}", at);
      return out;
    }
    case 2: {
      const std::size_t li = rng.below(lines.size());
      lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(li));
      what = fmt::format("drop line {}", li + 1);
      return join_lines(lines);
    }
    case 3: {
      const std::size_t li = rng.below(lines.size());
      const std::size_t to = rng.below(lines.size());
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(to), lines[li]);
      what = fmt::format("line {} again before line {}", li + 1, to + 1);
      return join_lines(lines);
    }
    case 4: {
      const std::size_t a = rng.below(lines.size());
      const std::size_t b = rng.below(lines.size());
      std::swap(lines[a], lines[b]);
      what = fmt::format("swap lines {} and {}", a + 1, b + 1);
      return join_lines(lines);
    }
    case 5: {
      const std::size_t at = rng.below(out.size());
      static const char* const kJunk[] = {"\xff", "\xc3", "\xed\xa0\x80", "\0", "\n", "\"", "\\", "{", "]", ","};
      const char* junk = kJunk[rng.below(std::size(kJunk))];
      out.insert(at, std::string(junk, junk[0] == '\0' ? 1 : std::char_traits<char>::length(junk)));
      what = fmt::format("insert a byte at {}", at);
      return out;
    }
    default: {
      const std::size_t changes = 1 + rng.below(3);
      std::string all;
      for (std::size_t i = 0; i < changes; ++i) {
        std::string one;
        out = mutate_field(lines, rng, one);
        lines = split_lines(out);
        all += (i == 0 ? "" : "; ") + one;
      }
      what = all;
      return out;
    }
  }
}

namespace {

Outcome verify_class(const replay::Replay& r) {
  const replay::Verification v = replay::verify(r);
  if (v.ok) return Outcome::ok;
  return v.simulable ? Outcome::diverged : Outcome::bad;
}

// What show and html do with a replay verify may refuse: each step re-simulated, every seat's
// view and the whole table drawn (a refusal is exit 5).
Outcome show_class(replay::Replay r, bool html) {
  auto frames = render::simulate(r);
  if (!frames) return Outcome::bad;
  render::restore_views(r, *frames);
  const std::size_t last = r.steps.size();
  (void)render::table_text(r, *frames, last, {});
  for (int seat = 0; seat < r.header.seats; ++seat) {
    if (!render::seat_text(r, *frames, last, seat, {})) return Outcome::bad;
  }
  // show's check of the state hash it draws
  if (const games::Game* game = games::find_game(r.header.game)) (void)game->state_from_json((*frames)[last].state);
  if (html && !render::html_page(r, "fuzz.jsonl")) return Outcome::bad;
  return Outcome::ok;
}

}  // namespace

Reading read_like_the_cli(const std::string& text, bool html) {
  Reading reading;
  try {
    std::istringstream in(text);
    auto r = replay::parse(in);
    if (!r) {
      reading.outcome = Outcome::bad;
      return reading;
    }
    reading.outcome = verify_class(*r);
    const Outcome shown = show_class(*r, html);
    if (reading.outcome == Outcome::ok && shown == Outcome::bad) reading.outcome = Outcome::bad;
  } catch (const std::exception& e) {
    reading.outcome = Outcome::internal;
    reading.message = e.what();
  }
  return reading;
}

}  // namespace arena::fuzz
