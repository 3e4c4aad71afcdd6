#include "referee/core/markup.hpp"

namespace arena {

namespace {

// Appends `value` as `digits` lowercase hex digits.
void append_hex(std::string& out, char32_t value, int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) out += kHex[(value >> shift) & 0xF];
}

}  // namespace

std::optional<Utf8Char> decode_utf8(std::string_view text) {
  if (text.empty()) return std::nullopt;
  const auto lead = static_cast<unsigned char>(text[0]);
  if (lead < 0x80) return Utf8Char{lead, 1};
  // The length from the lead byte, and the range of the second byte that excludes overlong
  // forms (E0, F0), surrogates (ED) and code points above U+10FFFF (F4).
  std::size_t size = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    size = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    size = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    size = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return std::nullopt;  // a continuation byte, C0, C1 or F5-FF
  }
  if (text.size() < size) return std::nullopt;
  const auto second = static_cast<unsigned char>(text[1]);
  if (second < low || second > high) return std::nullopt;
  char32_t code = lead & (0xFFu >> (size + 1));
  for (std::size_t k = 1; k < size; ++k) {
    const auto c = static_cast<unsigned char>(text[k]);
    if ((c & 0xC0) != 0x80) return std::nullopt;
    code = (code << 6) | (c & 0x3Fu);
  }
  return Utf8Char{code, size};
}

bool acts_on_terminal(char32_t code) {
  return code < 0x20 || (code >= 0x7F && code <= 0x9F) || (code >= 0x202A && code <= 0x202E) ||
         (code >= 0x2066 && code <= 0x2069);
}

std::string visible_text(std::string_view bytes, Visible mode) {
  std::string out;
  out.reserve(bytes.size());
  for (std::size_t i = 0; i < bytes.size();) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c >= 0x80 && mode == Visible::terminal) {
      if (const auto ch = decode_utf8(bytes.substr(i))) {
        if (acts_on_terminal(ch->code)) {
          out += "\\u";
          append_hex(out, ch->code, 4);
        } else {
          out.append(bytes.substr(i, ch->size));
        }
        i += ch->size;
        continue;
      }
    }
    if (c == '\\' && mode == Visible::ascii) {
      out += "\\\\";
    } else if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      out += "\\x";  // a control, or a byte that is not (the start of) valid UTF-8
      append_hex(out, c, 2);
    }
    ++i;
  }
  return out;
}

std::string terminal_safe(std::string_view text) {
  return visible_text(text, Visible::terminal);
}

std::string markup_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto ch = decode_utf8(text.substr(i));
    if (!ch) {
      out += '?';  // not UTF-8, which XML 1.0 requires: one '?' per byte
      ++i;
      continue;
    }
    switch (ch->code) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '\t':
      case '\n':
      case '\r':
        out += "&#" + std::to_string(static_cast<unsigned>(ch->code)) + ';';
        break;
      default:
        if (ch->code < 0x20 || ch->code == 0xFFFE || ch->code == 0xFFFF) {
          out += '?';  // not a character XML 1.0 allows
        } else if (acts_on_terminal(ch->code)) {
          out += "&#x";
          append_hex(out, ch->code, 4);
          out += ';';
        } else {
          out.append(text.substr(i, ch->size));
        }
    }
    i += ch->size;
  }
  return out;
}

std::string markdown_escape(std::string_view text) {
  std::string out;
  for (char c : terminal_safe(text)) {
    if (std::string_view("\\|*_`[]<>#&").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

}  // namespace arena
