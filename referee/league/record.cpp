#include "referee/league/record.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace arena::league {

json to_json(const MatchRecord& r) {
  json seats = json::array();
  for (const SeatRecord& s : r.seats) {
    seats.push_back({{"bot", s.bot},
                     {"score", s.score},
                     {"rank", s.rank},
                     {"decision_ms", s.decision_ms},
                     {"stderr_bytes", s.stderr_bytes}});
  }
  json j = {{"journal", kJournalVersion},
            {"index", r.index},
            {"deal", r.deal},
            {"leg", r.leg},
            {"seed", r.seed},
            {"end", enum_name(r.end)},
            {"seats", seats},
            {"fault", nullptr},
            {"replay", r.replay},
            {"rerun", r.rerun},
            {"start_unix_ms", r.start_unix_ms},
            {"end_unix_ms", r.end_unix_ms}};
  if (r.fault) {
    j["fault"] = {{"seat", r.fault->seat},
                  {"kind", enum_name(r.fault->kind)},
                  {"request_id", r.fault->request_id},
                  {"message", r.fault->message}};
    if (!r.fault->request.empty()) j["fault"]["request"] = r.fault->request;
    if (!r.fault->reply.empty()) j["fault"]["reply"] = r.fault->reply;
    if (!r.fault->stderr_tail.empty()) j["fault"]["stderr_tail"] = r.fault->stderr_tail;
  }
  return j;
}

std::string journal_line(const MatchRecord& record) {
  return to_json(record).dump(-1, ' ', false, json::error_handler_t::replace);
}

Result<MatchRecord> record_from_json(const json& j) {
  try {
    if (!j.is_object()) return fail(std::string("a journal line must be a JSON object"));
    if (j.value("journal", 0) != kJournalVersion) {
      return fail(fmt::format("journal version {} is not supported (expected {})",
                              j.value("journal", json(nullptr)).dump(), kJournalVersion));
    }
    MatchRecord r;
    r.index = j.at("index").get<std::uint64_t>();
    r.deal = j.at("deal").get<std::uint64_t>();
    r.leg = j.at("leg").get<int>();
    r.seed = j.at("seed").get<std::uint64_t>();
    const std::string end = j.at("end").get<std::string>();
    const auto parsed_end = parse_enum<replay::End>(end);
    if (parsed_end != replay::End::finished && parsed_end != replay::End::fault)
      return fail(fmt::format("unknown end \"{}\" (a journal holds finished and fault matches only)", end));
    r.end = *parsed_end;
    for (const json& s : j.at("seats")) {
      SeatRecord seat;
      seat.bot = s.at("bot").get<std::string>();
      seat.score = s.at("score").get<double>();
      seat.rank = s.at("rank").get<int>();
      seat.decision_ms = s.at("decision_ms").get<std::vector<double>>();
      seat.stderr_bytes = s.value("stderr_bytes", std::uint64_t{0});
      r.seats.push_back(std::move(seat));
    }
    if (r.seats.size() < 2) return fail(std::string("a match needs at least 2 seats"));
    for (const SeatRecord& seat : r.seats) {  // rank points count places 1..seats
      if (seat.rank < 1 || static_cast<std::size_t>(seat.rank) > r.seats.size())
        return fail(fmt::format("rank {} is outside 1..{}", seat.rank, r.seats.size()));
    }
    if (const json& f = j.at("fault"); !f.is_null()) {
      FaultRecord fault;
      fault.seat = f.at("seat").get<int>();
      const std::string kind = f.at("kind").get<std::string>();
      const auto parsed_kind = parse_enum<replay::FaultKind>(kind);
      if (!parsed_kind)
        return fail(fmt::format("unknown fault kind \"{}\" (expected {})", kind, enum_names_text<replay::FaultKind>()));
      fault.kind = *parsed_kind;
      fault.request_id = f.at("request_id").get<std::int64_t>();
      fault.message = f.at("message").get<std::string>();
      fault.request = f.value("request", "");
      fault.reply = f.value("reply", "");
      if (const auto tail = f.find("stderr_tail"); tail != f.end()) {
        if (!tail->is_array()) return fail(std::string("fault \"stderr_tail\" is not a list of lines"));
        for (const json& line : *tail) {
          if (!line.is_string()) return fail(std::string("fault \"stderr_tail\" is not a list of lines"));
          fault.stderr_tail.push_back(line.get<std::string>());
        }
      }
      r.fault = std::move(fault);
      if (r.fault->seat < 0 || static_cast<std::size_t>(r.fault->seat) >= r.seats.size()) {
        return fail(fmt::format("fault seat {} out of range", r.fault->seat));
      }
    }
    r.replay = j.value("replay", "");
    r.rerun = j.value("rerun", "");
    r.start_unix_ms = j.value("start_unix_ms", std::int64_t{0});
    r.end_unix_ms = j.value("end_unix_ms", std::int64_t{0});
    return r;
  } catch (const json::exception& e) {
    return fail(fmt::format("malformed journal line: {}", e.what()));
  }
}

double rank_points(const std::vector<int>& ranks, std::size_t seat) {
  const int n = static_cast<int>(ranks.size());
  const int rank = ranks[seat];
  const int tied = static_cast<int>(std::count(ranks.begin(), ranks.end(), rank));
  // Places rank .. rank+tied-1 (1-based), each worth (n - place) / (n - 1); the tied share them.
  double sum = 0;
  for (int place = rank; place < rank + tied; ++place)
    sum += static_cast<double>(n - place) / static_cast<double>(n - 1);
  return sum / tied;
}

double rank_points(const MatchRecord& r, int seat) {
  std::vector<int> ranks;
  for (const SeatRecord& s : r.seats) ranks.push_back(s.rank);
  return rank_points(ranks, static_cast<std::size_t>(seat));
}

}  // namespace arena::league
