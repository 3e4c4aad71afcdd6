#include "referee/match/view_delta.hpp"

namespace arena::match {

namespace {

// A member's key (as written, without quotes) as a JSON pointer token: "~" and "/" escaped.
void pointer_token(std::string_view key, std::string& out) {
  for (const char c : key) {
    if (c == '~') {
      out.append("~0");
    } else if (c == '/') {
      out.append("~1");
    } else {
      out.push_back(c);
    }
  }
}

void member(std::string_view key, std::string_view value, bool& first, std::string& out) {
  if (!first) out.push_back(',');
  first = false;
  out.push_back('"');
  out.append(key);
  out.append("\":");
  out.append(value);
}

// The members of `now` that `before` lacks or holds with another value, written into `out`
// (without braces).
void changed_members(const protocol2::Fields& before, const protocol2::Fields& now, std::string& out) {
  bool first = true;
  for (const auto& [key, value] : now.members()) {
    if (before[key] != value) member(key, value, first, out);
  }
}

// The keys `before` has and `now` lacks, appended to `removed` (a JSON array being written) as
// pointers under `path`.
void removed_members(const protocol2::Fields& before, const protocol2::Fields& now, std::string_view path,
                     std::string& removed) {
  for (const auto& [key, value] : before.members()) {
    if (!now[key].empty()) continue;
    removed.append(removed.empty() ? "[\"" : ",\"");
    removed.append(path);
    removed.push_back('/');
    pointer_token(key, removed);
    removed.push_back('"');
  }
}

}  // namespace

void ViewDelta::write(std::string_view view, std::string& delta, std::string& removed) {
  delta.clear();
  removed.clear();
  const std::size_t prev = cur_ ^ 1U;
  std::string& text = text_[cur_];
  protocol2::Fields& now = fields_[cur_];
  text.assign(view);
  if (!now.read(text)) {
    delta.assign(view);
    have_previous_ = false;
    return;
  }
  // "players": one entry per seat, each an object, compared member by member when the previous
  // view had as many.
  std::vector<std::string_view>& seats = players_[cur_];
  std::vector<protocol2::Fields>& seat_fields = player_fields_[cur_];
  bool objects = protocol2::elements(now["players"], seats);
  seat_fields.resize(seats.size());
  for (std::size_t i = 0; objects && i < seats.size(); ++i) objects = seat_fields[i].read(seats[i]);
  seat_objects_[cur_] = objects;
  const bool by_seat = objects && have_previous_ && seat_objects_[prev] && players_[prev].size() == seats.size();

  delta.push_back('{');
  bool first = true;
  const protocol2::Fields empty;
  const protocol2::Fields& before = have_previous_ ? fields_[prev] : empty;
  for (const auto& [key, value] : now.members()) {
    if (before[key] == value) continue;
    if (key != "players" || !by_seat) {
      member(key, value, first, delta);
      continue;
    }
    if (!first) delta.push_back(',');
    first = false;
    delta.append("\"players\":[");
    for (std::size_t i = 0; i < seats.size(); ++i) {
      if (i > 0) delta.push_back(',');
      delta.push_back('{');
      changed_members(player_fields_[prev][i], seat_fields[i], delta);
      removed_members(player_fields_[prev][i], seat_fields[i], "/players/" + std::to_string(i), removed);
      delta.push_back('}');
    }
    delta.push_back(']');
  }
  delta.push_back('}');
  removed_members(before, now, "", removed);
  if (!removed.empty()) removed.push_back(']');
  have_previous_ = true;
  cur_ = prev;
}

}  // namespace arena::match
