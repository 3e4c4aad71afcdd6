#include "referee/league/league_file.hpp"

#include <fmt/format.h>

#include <array>
#include <utility>

#include "referee/core/private_file.hpp"
#include "referee/league/folder.hpp"
#include "referee/league/rounds.hpp"

namespace arena::league {

namespace fs = std::filesystem;

namespace {

// A value for a message: JSON, cut when long (a list of bots).
std::string shown(const json& value) {
  constexpr std::size_t kShown = 120;
  std::string text = value.dump();
  if (text.size() > kShown) text = text.substr(0, kShown) + "...";
  return text;
}

// The flag that sets each key of a league file (the limits by their own keys), and whether the
// flags gave it.
struct FlagOf {
  std::string_view key;
  std::string_view flag;
  bool (*given)(const LeagueFlags&);
};
constexpr std::array<FlagOf, 17> kFlags = {{
    {"game", "--game", [](const LeagueFlags& f) { return f.game.has_value(); }},
    {"config", "--config", [](const LeagueFlags& f) { return f.config.has_value(); }},
    {"bots", "--bot", [](const LeagueFlags& f) { return !f.bots.empty() || !f.address_space_mb.empty(); }},
    {"format", "--format", [](const LeagueFlags& f) { return f.format.has_value(); }},
    {"seats", "--seats", [](const LeagueFlags& f) { return f.seats.has_value(); }},
    {"deals", "--deals", [](const LeagueFlags& f) { return f.deals.has_value(); }},
    {"deal_book", "--deals-file", [](const LeagueFlags& f) { return f.book.has_value(); }},
    {"deals_order", "--deals-order", [](const LeagueFlags& f) { return f.deals_order.has_value(); }},
    {"duplicate", "--no-duplicate", [](const LeagueFlags& f) { return f.no_duplicate; }},
    {"seed", "--seed", [](const LeagueFlags& f) { return f.seed.has_value(); }},
    {"init_ms", "--init-ms", [](const LeagueFlags& f) { return f.init_ms.has_value(); }},
    {"decision_ms", "--decision-ms", [](const LeagueFlags& f) { return f.decision_ms.has_value(); }},
    {"time_bank_ms", "--time-bank-ms", [](const LeagueFlags& f) { return f.time_bank_ms.has_value(); }},
    {"max_line_bytes", "--max-line-bytes", [](const LeagueFlags& f) { return f.max_line_bytes.has_value(); }},
    {"time_scale", "--time-scale", [](const LeagueFlags& f) { return f.time_scale.has_value(); }},
    {"sprt", "--sprt", [](const LeagueFlags& f) { return f.sprt.has_value(); }},
    {"rounds", "--rounds", [](const LeagueFlags& f) { return f.rounds.has_value(); }},
}};

// The flag that gave `key`, with its value ("--deals 4"; "--no-duplicate" alone); empty when no
// flag gave it.
std::string flag_given(const LeagueFlags& flags, std::string_view key, const json& value) {
  for (const FlagOf& f : kFlags) {
    if (f.key != key || !f.given(flags)) continue;
    return value.is_boolean() ? std::string(f.flag) : fmt::format("{} {}", f.flag, shown(value));
  }
  return {};
}

}  // namespace

Result<nlohmann::json> parse_json_text(std::string_view text, std::string_view name) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    // nlohmann's message after its tag: "parse error at line 3, column 14: syntax error ...".
    std::string what = e.what();
    constexpr std::string_view kAt = "parse error at ";
    if (const auto at = what.find(kAt); at != std::string::npos) what = what.substr(at + kAt.size());
    return fail(fmt::format("{} is not valid JSON: {}", name, what));
  }
}

Result<LeagueFile> read_league_file(const fs::path& out) {
  LeagueFile f;
  f.file = out / kLeagueFile;
  const std::string name = f.file.string();
  auto text = files::read_file(f.file);  // never through a link, a FIFO or a huge file
  if (!text) return fail(text.error());
  auto parsed = parse_json_text(*text, name);
  if (!parsed) return fail(parsed.error());
  json j = std::move(parsed).value();
  if (!j.is_object()) return fail(fmt::format("{} is not a league file (not a JSON object)", name));
  // What the runner records beside the spec: the league's folder and its shard.
  if (const auto dir = j.find("working_dir"); dir != j.end()) {
    if (!dir->is_string()) return fail(fmt::format("{}: \"working_dir\" is not a string", name));
    f.working_dir = fs::path(dir->get<std::string>());
    j.erase(dir);
  }
  auto shard = recorded_shard(j, name);
  if (!shard) return fail(shard.error());
  if (*shard && (*shard)->count > 1) f.shard = **shard;
  j.erase("shard");
  auto spec = spec_from_json(j);
  if (!spec) return fail(fmt::format("{}: {}", name, spec.error()));
  f.spec = std::move(spec).value();
  if (!f.spec.seed_scheme) f.spec.seed_scheme = SeedScheme::legacy;  // a league of before keyed seeds
  return f;
}

json to_json(const LeagueFile& f) {
  json j = to_json(f.spec);
  if (f.working_dir) j["working_dir"] = f.working_dir->string();
  if (f.shard && f.shard->count > 1) j["shard"] = to_json(*f.shard);
  return j;
}

Status check_sprt_on_shard(const LeagueSpec& spec, const std::optional<Shard>& shard) {
  if (spec.sprt && shard && shard->count > 1) {
    return fail(
        std::string("--sprt cannot run on a shard: its decision needs every deal in schedule order, which no single "
                    "shard plays (docs/distributed.md)"));
  }
  return {};
}

Status check_shard(const std::optional<Shard>& given, const LeagueFile& recorded) {
  if (!given || *given == recorded.shard.value_or(Shard{})) return {};
  const std::string name = recorded.file.string();
  if (recorded.shard) {
    return fail(fmt::format("{} holds shard {}/{} of its league, not {}/{}", name, recorded.shard->index,
                            recorded.shard->count, given->index, given->count));
  }
  return fail(fmt::format("{} holds a whole league, not shard {}/{}", name, given->index, given->count));
}

Status check_same_league(LeagueSpec& spec, const LeagueFile& recorded, const SourceOf& source) {
  if (!spec.seed_scheme) spec.seed_scheme = recorded.spec.seed_scheme;
  if (!spec.seed) spec.seed = recorded.spec.seed;
  const std::string name = recorded.file.string();
  if (!spec.seed) return fail(fmt::format("{} records no seed: not a league's file", name));
  json mine = to_json(spec);
  json theirs = to_json(recorded.spec);
  // The limits key by key (each has its flag), concurrency not at all (it may change).
  for (json* j : {&mine, &theirs}) {
    for (const auto& [key, value] : j->at("limits").items()) (*j)[key] = value;
    j->erase("limits");
    j->erase("concurrency");
  }
  std::string differences;
  // The deal book by its first difference (its deals, not the file they were read from); the
  // number of deals is the book's.
  if (spec.book || recorded.spec.book) {
    std::string book = !recorded.spec.book ? std::string("a deal book here, none there")
                       : !spec.book        ? std::string("no deal book here, one there")
                                           : book_difference(*spec.book, *recorded.spec.book);
    const json book_json = mine.value("deal_book", json());
    if (!book.empty() && source && source("deal_book", book_json).empty() &&
        source("deals_order", mine.value("deals_order", json())).empty()) {
      book.clear();  // a setting the caller does not ask about
    }
    if (!book.empty()) differences = "the deal book differs: " + book;
    for (json* j : {&mine, &theirs}) {
      for (const char* key : {"deal_book", "deals_order", "deals"}) j->erase(key);
    }
  }
  for (const auto& [key, value] : mine.items()) {
    const json there = theirs.value(key, json());
    if (value == there) continue;
    const std::string here = source ? source(key, value) : fmt::format("\"{}\": {}", key, shown(value));
    if (here.empty()) continue;  // a setting the caller does not ask about
    differences += fmt::format("{}{} here, \"{}\": {} there", differences.empty() ? "" : "; ", here, key, shown(there));
  }
  if (differences.empty()) return {};
  return fail(fmt::format("{} describes another league ({}); resume it with its own settings or choose another --out",
                          name, differences));
}

Result<League> apply_flags(const LeagueFlags& f, const std::optional<LeagueSpec>& file, const std::string& file_name,
                           const std::optional<LeagueFile>& recorded) {
  LeagueSpec spec = file ? *file : recorded && f.bots.empty() ? recorded->spec : LeagueSpec{};
  if (!f.bots.empty()) {
    spec.bots = f.bots;
    spec.ratings.clear();  // a league file's bots' ratings are not these bots'
  }
  if (f.game) spec.game = *f.game;
  if (f.config) spec.config = *f.config;
  if (f.format) spec.format = *f.format;
  if (f.seats) spec.seats = *f.seats;
  if (f.deals) spec.deals = *f.deals;
  if (f.book) {  // the file's deals, in the order the league file gave for its own book, if any
    const DealOrder order = spec.book ? spec.book->order : DealOrder::file;
    spec.book = *f.book;
    spec.book->order = order;
  }
  if (f.deals_order) {
    if (!spec.book)
      return fail(
          std::string("--deals-order needs a deal book: --deals-file FILE, or \"deals_file\" or a \"deals\" "
                      "list in the league file"));
    spec.book->order = *f.deals_order;
  }
  if (f.deals && spec.book && *f.deals != spec.book->deals.size()) {
    return fail(
        fmt::format("--deals {} conflicts with {}, which holds {} deals (the book gives the deals per pairing: "
                    "drop --deals)",
                    *f.deals, f.book ? f.book_name : std::string("the league's deal book"), spec.book->deals.size()));
  }
  if (f.no_duplicate) spec.duplicate = false;
  if (f.concurrency) spec.concurrency = *f.concurrency;
  if (f.seed) spec.seed = *f.seed;
  if (f.init_ms) spec.limits.init_ms = *f.init_ms;
  if (f.decision_ms) spec.limits.decision_ms = *f.decision_ms;
  if (f.time_bank_ms) spec.limits.time_bank_ms = *f.time_bank_ms;
  if (f.max_line_bytes) spec.limits.max_line_bytes = *f.max_line_bytes;
  if (f.time_scale) spec.time_scale = *f.time_scale;
  if (f.sprt) spec.sprt = *f.sprt;
  if (f.rounds) spec.rounds = *f.rounds;
  if (spec.bots.empty()) return fail(std::string("no bots: give --bot CMD (once per bot) or a league file"));
  if (f.address_space_mb.size() > 1 && f.address_space_mb.size() == spec.bots.size()) {
    for (std::size_t i = 0; i < spec.bots.size(); ++i) spec.bots[i].address_space_mb = f.address_space_mb[i];
  }
  const SourceOf source = [&](std::string_view key, const json& value) {
    if (std::string flag = flag_given(f, key, value); !flag.empty()) return flag;
    if (file) return fmt::format("\"{}\": {} in {}", key, shown(value), file_name);
    return fmt::format("\"{}\": {}", key, shown(value));
  };
  const LeagueSpec given = spec;
  auto normal = normalize(std::move(spec));
  if (!normal) {
    // On a resume, a flag that changed the league (--game: the recorded config no longer fits)
    // is the reason to name, not what the changed league then gets wrong.
    LeagueSpec flags_only = given;
    const SourceOf flag_of = [&](std::string_view key, const json& value) { return flag_given(f, key, value); };
    if (recorded) {
      if (auto st = check_same_league(flags_only, *recorded, flag_of); !st) return fail(st.error());
    }
    return fail(normal.error());
  }
  League league{std::move(normal).value(), f.shard};
  if (recorded) {
    if (auto st = check_shard(f.shard, *recorded); !st) return fail(st.error());
    league.shard = recorded->shard;
    if (auto st = check_same_league(league.spec, *recorded, source); !st) return fail(st.error());
  }
  if (auto st = check_sprt_on_shard(league.spec, league.shard); !st) return fail(st.error());
  if (auto st = check_rounds_on_shard(league.spec, league.shard); !st) return fail(st.error());
  return league;
}

}  // namespace arena::league
