#include "referee/match/view_delta.hpp"

namespace arena::match {

namespace {

using Members = std::vector<std::pair<std::string_view, std::string_view>>;
constexpr std::size_t kNone = std::string_view::npos;

// The raw value of `key` in `members`, empty when absent; `hint` is where to look first (views
// keep their keys in one order, so the member at the same place is nearly always the one).
std::string_view value_of(const Members& members, std::string_view key, std::size_t hint) {
  if (hint < members.size() && members[hint].first == key) return members[hint].second;
  for (const auto& [k, v] : members) {
    if (k == key) return v;
  }
  return {};
}

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
void changed_members(const Members& before, const Members& now, std::string& out) {
  bool first = true;
  for (std::size_t i = 0; i < now.size(); ++i) {
    if (value_of(before, now[i].first, i) != now[i].second) member(now[i].first, now[i].second, first, out);
  }
}

// The keys `before` has and `now` lacks, appended to `removed` (a JSON array being written) as
// pointers under `path`.
void removed_members(const Members& before, const Members& now, std::string_view path, std::string& removed) {
  for (std::size_t i = 0; i < before.size(); ++i) {
    if (!value_of(now, before[i].first, i).empty()) continue;
    removed.append(removed.empty() ? "[\"" : ",\"");
    removed.append(path);
    removed.push_back('/');
    pointer_token(before[i].first, removed);
    removed.push_back('"');
  }
}

}  // namespace

// One pass over the text: each value is skipped once, except "players", whose entries are read
// member by member.
bool ViewDelta::Split::read(std::string_view view) {
  namespace d = protocol2::detail;
  text.assign(view);
  top.clear();
  seat_objects = false;
  std::size_t seat_count = 0;
  const std::string_view t = text;
  const auto object_into = [&](Members& out, std::size_t at) {
    return d::object_members(t, at, [&](std::string_view key, std::size_t value_at) {
      const std::size_t end = d::skip_value(t, value_at);
      if (end != kNone) out.emplace_back(key, t.substr(value_at, end - value_at));
      return end;
    });
  };
  const std::size_t end = d::object_members(t, d::skip_space(t, 0), [&](std::string_view key, std::size_t at) {
    std::size_t value_end = kNone;
    if (key == "players" && !seat_objects && at < t.size() && t[at] == '[') {
      bool objects = true;
      value_end = d::array_elements(t, at, [&](std::size_t element) {
        if (seats.size() <= seat_count) seats.emplace_back();
        Members& entry = seats[seat_count++];
        entry.clear();
        const std::size_t object_end = object_into(entry, element);
        if (object_end != kNone) return object_end;
        objects = false;
        return d::skip_value(t, element);
      });
      seat_objects = objects && value_end != kNone;
    } else {
      value_end = d::skip_value(t, at);
    }
    if (value_end != kNone) top.emplace_back(key, t.substr(at, value_end - at));
    return value_end;
  });
  seats.resize(seat_count);
  return end != kNone && d::skip_space(t, end) == t.size();
}

void ViewDelta::write(std::string_view view, std::string& delta, std::string& removed) {
  delta.clear();
  removed.clear();
  const std::size_t prev = cur_ ^ 1U;
  Split& now = views_[cur_];
  if (!now.read(view)) {
    delta.assign(view);
    have_previous_ = false;
    return;
  }
  static const Split kEmpty;
  const Split& before = have_previous_ ? views_[prev] : kEmpty;
  // "players" seat by seat when both lists are of as many objects.
  const bool by_seat =
      have_previous_ && now.seat_objects && before.seat_objects && before.seats.size() == now.seats.size();

  delta.push_back('{');
  bool first = true;
  for (std::size_t i = 0; i < now.top.size(); ++i) {
    const auto& [key, value] = now.top[i];
    if (value_of(before.top, key, i) == value) continue;
    if (key != "players" || !by_seat) {
      member(key, value, first, delta);
      continue;
    }
    if (!first) delta.push_back(',');
    first = false;
    delta.append("\"players\":[");
    for (std::size_t seat = 0; seat < now.seats.size(); ++seat) {
      if (seat > 0) delta.push_back(',');
      delta.push_back('{');
      changed_members(before.seats[seat], now.seats[seat], delta);
      delta.push_back('}');
      removed_members(before.seats[seat], now.seats[seat], "/players/" + std::to_string(seat), removed);
    }
    delta.push_back(']');
  }
  delta.push_back('}');
  removed_members(before.top, now.top, "", removed);
  if (!removed.empty()) removed.push_back(']');
  have_previous_ = true;
  cur_ = prev;
}

}  // namespace arena::match
