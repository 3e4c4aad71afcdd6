// Writes protocol/transcripts/stellar_*.jsonl from the real engine, mirroring match.cpp. Run it
// after a rules change that alters a view:  build/tests/protocol/make_transcripts protocol/transcripts
#include <fmt/format.h>

#include <fstream>
#include <iostream>

#include "protocol/codec.hpp"
#include "referee/games/game.hpp"
using namespace arena;
using nlohmann::json;
namespace p = arena::protocol;

struct Out {
  std::ofstream f;
  void header(const json& h) { f << "{\"transcript\":" << p::to_line(h) << "}\n"; }
  void line(int seat, const char* dir, const std::string& msg, const std::string& note = "") {
    f << "{\"seat\":" << seat << ",\"dir\":\"" << dir << "\",";
    if (!note.empty()) f << "\"note\":" << p::to_line(json(note)) << ",";
    f << "\"line\":" << msg << "}\n";
  }
};

json public_result_fault(int seat, const char* kind, int64_t rid, const std::string& msg) {
  return {{"end", "fault"},
          {"scores", nullptr},
          {"winner", 1 - seat},
          {"outcome", nullptr},
          {"fault", {{"seat", seat}, {"kind", kind}, {"request_id", rid}, {"message", msg}}},
          {"ranks", seat == 0 ? json({2, 1}) : json({1, 2})}};
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_transcripts DIR\n";
    return 2;
  }
  const std::string dir = argv[1];
  const auto* g = games::find_game("stellar");
  const json cfg = g->normalize_config(nullptr).value();
  // Every hello carries the seat's card table (protocol 2's; a version-1 bot ignores it).
  const auto cards = [&](int seat) { return games::seat_card_table(g->protocol_card_table(cfg, {}), seat); };
  {
    Out o{std::ofstream(dir + "/stellar_short.jsonl")};
    o.header({{"game", "stellar"},
              {"seed", 42},
              {"seats", 2},
              {"prefix", json::array()},
              {"description",
               "Handshake, two decisions (the second reply carries a debug text), then seat 1 "
               "does not answer request 3: a timeout, seat 1 forfeits, only seat 0 gets game_over."}});
    auto st = std::move(g->new_game(cfg, 42, 2)).value();
    p::Limits lim;
    for (int s = 0; s < 2; ++s) o.line(s, "to_bot", p::to_line(p::hello("stellar", s, 2, cfg, lim, cards(s))));
    o.line(0, "from_bot", R"({"type":"ready","protocol":1,"name":"first_legal","version":"1.0.2"})");
    o.line(1, "from_bot", R"({"type":"ready","protocol":1,"name":"slowpoke"})", "\"version\" is optional");
    // request 1: seat 0 chooses a starter
    o.line(0, "to_bot", p::to_line(p::request(1, 0, st->view(0), st->legal_actions(), 1000, 0)),
           "seat 0 sees its two starters; the legal list is in canonical order");
    auto a1 = st->legal_actions()[0];
    o.line(0, "from_bot", R"({"type":"action","protocol":1,"id":1,"action":)" + p::to_line(a1) + "}");
    if (!st->apply(a1)) return 1;
    o.line(1, "to_bot", p::to_line(p::request(2, 1, st->view(1), st->legal_actions(), 1000, 0)),
           "seat 1 sees only that seat 0 has chosen, not which starter");
    auto a2 = st->legal_actions()[1];
    o.line(1, "from_bot",
           R"({"type":"action","protocol":1,"id":2,"action":)" + p::to_line(a2) +
               R"x(,"debug":"Asteroid 3 \u2192 telescope slot 1, Moon 3 \u2192 notebook (eval 0.61)"})x",
           "the debug text goes to the replay, never to the opponent");
    if (!st->apply(a2)) return 1;
    o.line(1, "to_bot", p::to_line(p::request(3, 1, st->view(1), st->legal_actions(), 1000, 0)),
           "seat 1 never answers: 1000 ms after this line was written the referee records a timeout");
    o.line(0, "to_bot",
           p::to_line(p::game_over(public_result_fault(1, "timeout", 3, "no reply by the deadline (1000 ms + bank)"))),
           "the offender gets no game_over; every other seat does, then its stdin is closed");
  }
  {
    const std::uint64_t seed = 7;
    auto st = std::move(g->new_game(cfg, seed, 2)).value();
    json prefix = json::array();
    std::int64_t n = 0;
    const std::int64_t skip = 50;
    while (n < skip) {
      ++n;
      const auto i = static_cast<std::size_t>(n * 7) % st->legal_count();
      prefix.push_back(i);
      st->apply_index(i);
    }
    Out o{std::ofstream(dir + "/stellar_ending.jsonl")};
    o.header({{"game", "stellar"},
              {"seed", seed},
              {"seats", 2},
              {"prefix", prefix},
              {"description",
               "A finished game with a time bank: the handshake, then (after decisions 1-50, "
               "left out; the test replays them from \"prefix\", indices into each legal list) "
               "the last decisions of the game and game_over to both seats."}});
    p::Limits lim;
    lim.time_bank_ms = 2000;
    for (int s = 0; s < 2; ++s) o.line(s, "to_bot", p::to_line(p::hello("stellar", s, 2, cfg, lim, cards(s))));
    o.line(0, "from_bot", R"({"type":"ready","protocol":1,"name":"greedy","version":"0.3"})");
    o.line(1, "from_bot", R"({"protocol":1,"type":"ready","name":"random_bot"})", "key order does not matter");
    const std::int64_t banks[2] = {1640, 2000};
    bool first = true;
    while (!st->is_over()) {
      ++n;
      const int s = st->to_act();
      const auto legal = st->legal_actions();
      o.line(
          s, "to_bot", p::to_line(p::request(n, s, st->view(s), legal, 1000 + banks[s], banks[s])),
          first ? "decisions 1-50 left out; seat 0 has used 360 ms of its 2000 ms bank, so it has 1000 + 1640 ms" : "");
      const auto i = static_cast<std::size_t>(n * 7) % legal.size();
      std::string debug = s == 0 && legal[i]["kind"] == "keep" ? R"(,"debug":"kept card 17 after 200 rollouts")" : "";
      o.line(s, "from_bot",
             R"({"type":"action","protocol":1,"id":)" + std::to_string(n) + R"(,"action":)" + p::to_line(legal[i]) +
                 debug + "}");
      st->apply_index(i);
      first = false;
    }
    const auto scores = st->scores();
    json ranks = scores[0] > scores[1] ? json({1, 2}) : scores[0] < scores[1] ? json({2, 1}) : json({1, 1});
    json result = {{"end", "finished"},
                   {"scores", scores},
                   {"outcome", st->outcome()},
                   {"fault", nullptr},
                   {"ranks", ranks},
                   {"winner", scores[0] == scores[1] ? json(nullptr) : json(scores[0] > scores[1] ? 0 : 1)}};
    for (int s = 0; s < 2; ++s)
      o.line(s, "to_bot", p::to_line(p::game_over(result)), s == 0 ? "both seats get the same result" : "");
  }
  {
    Out o{std::ofstream(dir + "/stellar_v2_mixed.jsonl")};
    o.header({{"game", "stellar"},
              {"seed", 11},
              {"seats", 2},
              {"prefix", json::array()},
              {"description",
               "Protocol 2 next to protocol 1: seat 0 chooses version 2 in its ready (views name cards by id, "
               "the card table came in hello), seat 1 stays at version 1 (full card objects). At its first "
               "request from the fifth decision on, seat 0 answers with \"protocol\": 1: a malformed fault; seat 1 "
               "gets game_over."}});
    auto st = std::move(g->new_game(cfg, 11, 2)).value();
    p::Limits lim;
    for (int s = 0; s < 2; ++s) {
      o.line(s, "to_bot", p::to_line(p::hello("stellar", s, 2, cfg, lim, cards(s))),
             s == 0 ? "\"protocols\" offers versions 1 and 2; \"cards\" is the card table, indexed by id" : "");
    }
    o.line(0, "from_bot", R"({"type":"ready","protocol":2,"name":"compact","reuse":true})",
           "version 2; reuse: this bot can play further matches in one process");
    o.line(1, "from_bot", R"({"type":"ready","protocol":1,"name":"classic"})", "version 1, as before");
    const int versions[2] = {2, 1};
    std::int64_t faulty = 0;  // seat 0's first request from the fifth on: it answers with version 1
    for (std::int64_t n = 1; faulty == 0; ++n) {
      const int s = st->to_act();
      const int v = versions[s];
      const auto legal = st->legal_actions();
      const json view = v == 2 ? st->view_v2(s) : st->view(s);
      std::string note;
      if (n == 1) note = "version 2: every card in the view is its id in hello's table";
      if (n == 2) note = "version 1: the same view with whole card objects";
      o.line(s, "to_bot", p::to_line(p::request(n, s, view, legal, 1000, 0, v)), note);
      if (n >= 5 && s == 0) {
        faulty = n;
        o.line(s, "from_bot",
               fmt::format(R"({{"type":"action","protocol":1,"id":{},"action":{}}})", n, p::to_line(legal[0])),
               "refused: a version-2 bot must write \"protocol\": 2 in every action");
        break;
      }
      const auto i = static_cast<std::size_t>(n * 3) % legal.size();
      o.line(s, "from_bot",
             fmt::format(R"({{"type":"action","protocol":{},"id":{},"action":{}}})", v, n, p::to_line(legal[i])));
      st->apply_index(i);
    }
    json result = public_result_fault(0, "malformed", faulty,
                                      "protocol 1 in an action, but the bot chose protocol 2 in its ready");
    o.line(1, "to_bot", p::to_line(p::game_over(result, 1)), "seat 1 speaks version 1: its game_over says so");
  }
}
