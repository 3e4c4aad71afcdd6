#include "referee/match/hello_lines.hpp"

#include <fmt/format.h>

#include <deque>
#include <mutex>
#include <utility>

namespace arena::match {

namespace {

constexpr std::size_t kKept = 8;  // configurations kept (a league uses one; a ladder a few)

struct Entry {
  std::string key;
  std::shared_ptr<const std::vector<std::string>> lines;
};

}  // namespace

std::shared_ptr<const std::vector<std::string>> hello_lines(const games::Game& game, const nlohmann::json& config,
                                                            const std::vector<nlohmann::json>& seat_configs,
                                                            const protocol::Limits& limits, int seats) {
  // Everything a hello line depends on, as text.
  std::string key = fmt::format("{}\n{}\n{}\n", game.info().name, seats, limits.to_json().dump());
  key.append(config.dump()).push_back('\n');
  for (const nlohmann::json& s : seat_configs) key.append(s.dump()).push_back('\n');

  static std::mutex mu;
  static std::deque<Entry> kept;
  {
    std::lock_guard lock(mu);
    for (const Entry& e : kept) {
      if (e.key == key) return e.lines;
    }
  }
  const nlohmann::json cards = game.protocol_card_table(config, seat_configs);
  auto lines = std::make_shared<std::vector<std::string>>();
  for (int seat = 0; seat < seats; ++seat) {
    lines->push_back(protocol::to_line(
        protocol::hello(game.info().name, seat, seats, config, limits, games::seat_card_table(cards, seat))));
  }
  std::lock_guard lock(mu);
  kept.push_front({std::move(key), lines});
  if (kept.size() > kKept) kept.pop_back();
  return lines;
}

}  // namespace arena::match
