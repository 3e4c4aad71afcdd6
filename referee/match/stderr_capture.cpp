#include "referee/match/stderr_capture.hpp"

#include "referee/bots/process.hpp"
#include "referee/core/markup.hpp"

namespace arena::match {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

}  // namespace

DecisionStderr stderr_lines(std::string_view head, std::uint64_t total, std::size_t max_bytes, std::size_t max_lines) {
  DecisionStderr out;
  std::size_t room = max_bytes;  // bytes of text still allowed
  std::size_t used = 0;          // bytes of `head` taken into lines, line ends included
  bool full = false;
  while (used < head.size() && out.lines.size() < max_lines && !full) {
    const std::size_t nl = head.find('\n', used);
    std::string_view raw = head.substr(used, nl == std::string_view::npos ? std::string_view::npos : nl - used);
    const bool cr = !raw.empty() && raw.back() == '\r';
    if (cr) raw.remove_suffix(1);
    std::string line;
    std::size_t taken = 0;  // bytes of `raw`
    while (taken < raw.size()) {
      const auto c = decode_utf8(raw.substr(taken));
      const std::size_t in = c ? c->size : 1;
      const std::string_view text = c ? raw.substr(taken, in) : kReplacement;
      if (text.size() > room) {
        full = true;
        break;
      }
      line.append(text);
      room -= text.size();
      taken += in;
    }
    used += taken;
    if (full && taken == 0) break;  // no room left for this line at all
    if (!full) used += (cr ? 1u : 0u) + (nl == std::string_view::npos ? 0u : 1u);
    out.lines.push_back(std::move(line));
  }
  out.cut = total > used ? total - used : 0;
  return out;
}

void take_decision_stderr(bots::BotProcess& bot, replay::Step& step) {
  const auto since = bot.stderr_since_last();
  if (since.bytes == 0) return;
  DecisionStderr taken = stderr_lines(since.head, since.bytes);
  step.stderr_lines = std::move(taken.lines);
  step.stderr_cut = taken.cut;
}

}  // namespace arena::match
