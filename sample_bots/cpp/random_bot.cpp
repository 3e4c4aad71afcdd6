// random_bot: the smallest useful bot, and a starting point for your own.
//
// It speaks the referee's protocol (docs/protocol.md): one JSON object per line on stdin, one
// JSON object per line on stdout, flushed after every line. It works for any game, because it
// only reads the request's "legal" list and answers with one of its entries, chosen uniformly at
// random. It speaks version 2 when the referee offers it (version 1 otherwise) and plays match
// after match until its input ends ("reuse": true): every hello starts a new match.
//
// It reads a request the cheap way (protocol2.hpp's Fields): it finds "type", "id" and "legal"
// and stops there, without parsing or even scanning the view (the bulk of every request, written
// after them), and copies the chosen legal action into its answer as text. It reads hello the
// same way: its "seat" and "protocols", never its card table (most of the line).
//
//   usage: random_bot [--seed N]      (the seed is mixed with the seat from the hello message)
//
// Build: g++ -std=c++20 -O2 random_bot.cpp -o random_bot   (needs nlohmann/json.hpp, protocol2.hpp)

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "protocol2.hpp"

int main(int argc, char** argv) {
  // Fast line I/O: unsynchronised iostreams read their input in blocks (synchronised with C
  // stdio, every character is a separate call), and cin no longer flushes cout before each read.
  std::ios::sync_with_stdio(false);
  std::cin.tie(nullptr);

  std::uint64_t seed = 0;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
  }
  // std::mt19937_64 gives the same numbers on every standard library (its distributions do not,
  // hence the plain modulo below; its bias is negligible for lists this short).
  std::mt19937_64 rng(seed);
  int protocol = 1;  // chosen at each hello

  std::string line;                       // reused for every line: no allocation once it has grown
  protocol2::Fields fields;               // the line's top-level members, as raw text
  std::vector<std::string_view> legal;    // the request's legal actions, as raw text
  std::string answer;                     // the answer line, reused
  while (std::getline(std::cin, line)) {  // the referee closes stdin at the end: we exit on EOF
    if (!fields.read(line, {"type", "id", "legal"})) {
      std::cerr << "random_bot: ignoring a line that is not a JSON object\n";
      continue;
    }
    const std::string_view type = fields["type"];  // raw text: with its quotes

    if (type == R"("request")") {
      // A decision: "legal" lists every action allowed now (never empty). Answer with one of
      // them, copied as is, the request's id and the version chosen at the hello. Nothing else of
      // the request is read: its view is not even scanned.
      if (!protocol2::elements(fields["legal"], legal) || legal.empty() || fields["id"].empty()) {
        std::cerr << "random_bot: a request without an id or legal actions\n";
        continue;
      }
      const std::size_t pick = static_cast<std::size_t>(rng() % legal.size());
      answer.assign(R"({"type":"action","protocol":)").append(std::to_string(protocol));
      answer.append(R"(,"id":)").append(fields["id"]).append(R"(,"action":)").append(legal[pick]).append("}\n");
      std::cout << answer << std::flush;

    } else if (type == R"("hello")") {
      // A new match (a reused bot gets one hello per match): which game, which seat. Answer
      // "ready" with a name (1-64 bytes) and the chosen version; "reuse" exists in version 2 only,
      // and so does "view_delta": it never reads the view, and the shortest requests are the ones
      // carrying what changed.
      const std::string_view seat_text = fields["seat"];
      unsigned seat = 0;
      std::from_chars(seat_text.data(), seat_text.data() + seat_text.size(), seat);
      rng.seed(seed * 1000003u + seat);
      protocol = protocol2::choose(fields["protocols"]);
      std::cout
          << (protocol == 2
                  ? R"({"name":"random_bot","protocol":2,"reuse":true,"type":"ready","version":"1.0","view_delta":true})"
                  : R"({"name":"random_bot","protocol":1,"type":"ready","version":"1.0"})")
          << '\n'
          << std::flush;

    } else if (type == R"("game_over")") {
      // The result. Then either stdin closes (the loop ends) or, for a reused bot, the next
      // match's hello arrives.
      std::cerr << "random_bot: game over\n";
    }
  }
  return 0;
}
