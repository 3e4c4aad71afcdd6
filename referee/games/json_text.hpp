#pragma once
// JSON written as text straight from a game's state, without a JSON tree: the primitives of the
// protocol-2 writers (games/<game>/wire.cpp), each of which writes nlohmann's dump byte for byte
// (keys sorted, no spaces), as the conformance check compares.

#include <charconv>
#include <string>
#include <string_view>

namespace arena::games {

class JsonText {
 public:
  explicit JsonText(std::string& out) : out_(out) {}

  void raw(std::string_view text) { out_.append(text); }
  void integer(long long v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
  }
  void boolean(bool b) { raw(b ? "true" : "false"); }
  // A string that needs no escaping (an enum's or a card's name), in quotes.
  void quoted(std::string_view text) {
    out_.push_back('"');
    out_.append(text);
    out_.push_back('"');
  }
  // A JSON array of `items`, each written by `write(item)`.
  template <typename Items, typename Write>
  void array(const Items& items, Write&& write) {
    out_.push_back('[');
    bool first = true;
    for (const auto& item : items) {
      if (!first) out_.push_back(',');
      first = false;
      write(item);
    }
    out_.push_back(']');
  }

 protected:
  std::string& out_;
};

}  // namespace arena::games
