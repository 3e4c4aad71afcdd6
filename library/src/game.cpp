// The rules library's Game: the referee's type-erased engine (games::GameState) with the
// protocol's text forms and the replay's hashes, errors thrown as stellar_arena::Error.

#include "stellar_arena/game.hpp"

#include <fmt/format.h>

#include "referee/core/hash.hpp"
#include "referee/core/rng.hpp"
#include "referee/games/game.hpp"
#include "referee/replay/replay.hpp"

namespace stellar_arena {

namespace games = arena::games;

struct Game::Impl {
  const games::Game* game = nullptr;
  std::unique_ptr<games::GameState> state;
  json config;
  std::vector<json> seat_configs;
};

namespace {

const games::Game& find(const std::string& name) {
  const games::Game* game = games::find_game(name);
  if (game == nullptr) throw Error(fmt::format("unknown game \"{}\" (known: {})", name, games::game_names()));
  return *game;
}

// One normalised configuration per seat (null: none), as the replay's header has them.
std::vector<json> normalized_seat_configs(const games::Game& game, const std::vector<json>& given, int seats) {
  std::vector<json> out(static_cast<std::size_t>(seats), nullptr);
  for (std::size_t s = 0; s < given.size() && s < out.size(); ++s) {
    auto seat_config = game.normalize_seat_config(given[s]);
    if (!seat_config) throw Error(fmt::format("{}: seat {}: {}", game.info().name, s, seat_config.error()));
    out[s] = std::move(seat_config).value();
  }
  return out;
}

}  // namespace

std::vector<std::string> game_names() {
  std::vector<std::string> names;
  for (const games::Game* g : games::all_games()) names.push_back(g->info().name);
  return names;
}

Game::Game(const std::string& game, std::uint64_t seed, const json& config, const std::vector<json>& seat_configs,
           int seats)
    : impl_(std::make_unique<Impl>()) {
  impl_->game = &find(game);
  const games::GameInfo& info = impl_->game->info();
  if (seats == 0) seats = seat_configs.empty() ? info.min_seats : static_cast<int>(seat_configs.size());
  auto normal = impl_->game->normalize_config(config);
  if (!normal) throw Error(fmt::format("{}: config: {}", game, normal.error()));
  impl_->config = std::move(normal).value();
  auto created = impl_->game->new_game(impl_->config, seat_configs, seed, seats);
  if (!created) throw Error(created.error());  // it names the game or the seat
  impl_->state = std::move(created).value();
  impl_->seat_configs = normalized_seat_configs(*impl_->game, seat_configs, seats);
}

Game::Game(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Game Game::from_replay(const std::filesystem::path& path, std::size_t step) {
  auto read = arena::replay::read(path);
  if (!read) throw Error(fmt::format("{}: {}", path.string(), read.error()));
  const arena::replay::Replay& replay = *read;
  if (step > replay.steps.size()) {
    throw Error(
        fmt::format("{}: step {} asked, the replay has {} decisions", path.string(), step, replay.steps.size()));
  }
  auto created = arena::replay::initial_state(replay.header);
  if (!created) throw Error(fmt::format("{}: {}", path.string(), created.error()));
  auto impl = std::make_unique<Impl>();
  impl->game = games::find_game(replay.header.game);
  impl->state = std::move(created).value();
  impl->config = replay.header.config;
  impl->seat_configs = arena::replay::seat_configs(replay.header);
  for (std::size_t i = 0; i < step; ++i) {
    const arena::replay::Step& s = replay.steps[i];
    if (impl->state->is_over()) throw Error(fmt::format("{}: step {}: the game was already over", path.string(), i));
    if (impl->state->to_act() != s.seat) {
      throw Error(fmt::format("{}: step {}: seat {} acted but seat {} was to act", path.string(), i, s.seat,
                              impl->state->to_act()));
    }
    if (auto applied = impl->state->apply(s.action); !applied) {
      throw Error(fmt::format("{}: step {}: action {} is refused: {}", path.string(), i, games::dump_line(s.action),
                              applied.error()));
    }
    if (arena::hash_hex(impl->state->hash()) != s.hash) {
      throw Error(fmt::format("{}: step {}: the state hash differs from the replay's (another referee's rules?)",
                              path.string(), i));
    }
  }
  return Game(std::move(impl));
}

Game Game::from_request(const std::string& game, const json& request, std::uint64_t seed, const json& config,
                        const std::vector<json>& seat_configs) {
  auto impl = std::make_unique<Impl>();
  impl->game = &find(game);
  auto normal = impl->game->normalize_config(config);
  if (!normal) throw Error(fmt::format("{}: config: {}", game, normal.error()));
  impl->config = std::move(normal).value();
  if (!request.is_object() || !request.contains("seat") || !request.contains("view") ||
      !request.at("seat").is_number_integer()) {
    throw Error("from_request: a request has an integer \"seat\" and a \"view\"");
  }
  const int seat = request.at("seat").get<int>();
  auto rebuilt = impl->game->state_from_view(request.at("view"), seat, impl->config, seat_configs, seed);
  if (!rebuilt) {
    const bool by_id = !impl->game->protocol_card_table(impl->config, seat_configs).is_null();
    if (request.value("protocol", 1) == 2 && by_id) {
      throw Error(
          fmt::format("from_request: {} (a protocol-2 view: {}'s name cards by id; a game that cannot read "
                      "them needs a protocol-1 request)",
                      rebuilt.error(), game));
    }
    throw Error("from_request: " + rebuilt.error());
  }
  impl->state = std::move(rebuilt).value();
  impl->seat_configs = normalized_seat_configs(*impl->game, seat_configs, impl->state->seats());
  Game out(std::move(impl));
  if (request.contains("legal") && json(out.legal_actions()) != request.at("legal")) {
    throw Error("from_request: the rebuilt game's legal list differs from the request's");
  }
  return out;
}

Game::Game(const Game& other)
    : impl_(std::make_unique<Impl>(
          Impl{other.impl_->game, other.impl_->state->clone(), other.impl_->config, other.impl_->seat_configs})) {}
Game& Game::operator=(const Game& other) {
  if (this != &other) *this = Game(other);
  return *this;
}
Game::Game(Game&&) noexcept = default;
Game& Game::operator=(Game&&) noexcept = default;
Game::~Game() = default;

const std::string& Game::name() const {
  return impl_->game->info().name;
}
int Game::seats() const {
  return impl_->state->seats();
}
const json& Game::config() const {
  return impl_->config;
}
const std::vector<json>& Game::seat_configs() const {
  return impl_->seat_configs;
}

bool Game::is_over() const {
  return impl_->state->is_over();
}
std::optional<int> Game::to_act() const {
  if (impl_->state->is_over()) return std::nullopt;
  return impl_->state->to_act();
}
std::vector<json> Game::legal_actions() const {
  if (impl_->state->is_over()) return {};
  return impl_->state->legal_actions();
}
std::size_t Game::legal_count() const {
  return impl_->state->is_over() ? 0 : impl_->state->legal_count();
}
void Game::apply(const json& action) {
  if (auto applied = impl_->state->apply(action); !applied) {
    throw Error(fmt::format("action {} is refused: {}", games::dump_line(action), applied.error()));
  }
}
void Game::apply_index(std::size_t i) {
  const std::size_t count = legal_count();
  if (i >= count) throw Error(fmt::format("legal action {} asked, there are {}", i, count));
  impl_->state->apply_index(i);
}

int Game::seat_checked(int seat) const {
  if (seat < 0 || seat >= seats()) throw Error(fmt::format("seat {}: the game has seats 0 to {}", seat, seats() - 1));
  return seat;
}

json Game::view(int seat, int protocol) const {
  seat_checked(seat);
  if (protocol == 1) return impl_->state->view(seat);
  if (protocol == 2) return impl_->state->view_v2(seat);
  throw Error(fmt::format("protocol {}: the referee speaks versions 1 and 2", protocol));
}
std::string Game::view_text(int seat, int protocol) const {
  seat_checked(seat);
  if (protocol == 1) return games::dump_line(impl_->state->view(seat));
  if (protocol != 2) throw Error(fmt::format("protocol {}: the referee speaks versions 1 and 2", protocol));
  std::string text;
  impl_->state->write_view_v2(seat, text);
  return text;
}
json Game::card_table(int seat) const {
  seat_checked(seat);
  return games::seat_card_table(impl_->game->protocol_card_table(impl_->config, impl_->seat_configs), seat);
}
std::string Game::view_hash(int seat) const {
  return arena::hash_hex(arena::stable_hash(view_text(seat, 2)));
}
std::string Game::state_hash() const {
  return arena::hash_hex(impl_->state->hash());
}

std::vector<double> Game::scores() const {
  if (!is_over()) throw Error("scores: the game is not over");
  return impl_->state->scores();
}
json Game::outcome() const {
  if (!is_over()) throw Error("outcome: the game is not over");
  return impl_->state->outcome();
}

std::vector<double> Game::rollout(std::uint64_t seed) {
  arena::Rng rng(seed);
  games::GameState& state = *impl_->state;
  while (!state.is_over()) state.apply_index(static_cast<std::size_t>(rng.below(state.legal_count())));
  return state.scores();
}

Game Game::determinize(int seat, std::uint64_t seed) const {
  seat_checked(seat);
  Game out(*this);
  arena::Rng rng(seed);
  out.impl_->state->redeal_unseen(seat, rng);
  out.impl_->state->reseed_chance(rng.next());
  return out;
}

}  // namespace stellar_arena
