#pragma once
// What `referee league` prints while it runs, beside one line per match: every N journaled
// matches (--rating-interval), the score of each pair of bots that met, as cutechess and fastchess
// print it ("Score of A vs B: W - L - D  [ratio] N"), and the current points table. Counted from
// the matches this run journaled and the earlier runs' (a resume starts from the journal).

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "referee/league/record.hpp"

namespace arena::cli {

class LiveScore {
 public:
  explicit LiveScore(std::vector<std::string> bot_names);

  void add(const league::MatchRecord& record);
  std::uint64_t matches() const { return matches_; }
  // The "Score of" lines (pairs in league order) and a table of points, one string.
  std::string report() const;

 private:
  struct Head {  // a's results against b, head to head (the better rank wins)
    int wins = 0;
    int losses = 0;
    int draws = 0;
  };
  struct Bot {
    int games = 0;
    double points = 0;
    int wins = 0;
    int draws = 0;
    int losses = 0;
  };
  std::size_t index_of(const std::string& name);

  std::vector<std::string> names_;
  std::vector<Bot> bots_;
  std::map<std::pair<std::size_t, std::size_t>, Head> heads_;  // a < b in league order
  std::uint64_t matches_ = 0;
};

}  // namespace arena::cli
