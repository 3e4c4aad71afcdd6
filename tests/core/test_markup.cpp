// The escapers of referee/core/markup: UTF-8 decoding, text for terminals (terminal_safe and
// the ASCII form of a fault's raw bytes), XML and Markdown.

#include <catch2/catch.hpp>
#include <string>

#include "referee/core/markup.hpp"

using namespace arena;
using Catch::Matchers::Contains;

namespace {

// True when `text` holds nothing a terminal acts on: no C0 control or DEL, no UTF-8-encoded C1
// control (C2 80-9F) or bidirectional override/isolate (E2 80 AA-AE, E2 81 A6-A9), and no byte
// 80-9F outside a multi-byte sequence (a raw C1 control).
bool inert(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const auto before = i > 0 ? static_cast<unsigned char>(text[i - 1]) : 0;
    const auto before2 = i > 1 ? static_cast<unsigned char>(text[i - 2]) : 0;
    if (c < 0x20 || c == 0x7F) return false;
    if (c >= 0x80 && c <= 0x9F && (before < 0x80 || before == 0xC2)) return false;
    if (before2 == 0xE2 && before == 0x80 && c >= 0xAA && c <= 0xAE) return false;
    if (before2 == 0xE2 && before == 0x81 && c >= 0xA6 && c <= 0xA9) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("decode_utf8: valid characters of every length", "[core][utf8]") {
  const auto a = decode_utf8("A");
  REQUIRE(a);
  CHECK(a->code == U'A');
  CHECK(a->size == 1);
  const auto e = decode_utf8("\xc3\xa9x");  // é
  REQUIRE(e);
  CHECK(e->code == 0xE9);
  CHECK(e->size == 2);
  const auto han = decode_utf8("\xe6\xbc\xa2");  // 漢
  REQUIRE(han);
  CHECK(han->code == 0x6F22);
  CHECK(han->size == 3);
  const auto emoji = decode_utf8("\xf0\x9f\x98\x80");  // 😀
  REQUIRE(emoji);
  CHECK(emoji->code == 0x1F600);
  CHECK(emoji->size == 4);
  const auto last = decode_utf8("\xf4\x8f\xbf\xbf");  // U+10FFFF
  REQUIRE(last);
  CHECK(last->code == 0x10FFFF);
}

TEST_CASE("decode_utf8: invalid sequences are refused", "[core][utf8]") {
  CHECK_FALSE(decode_utf8(""));
  CHECK_FALSE(decode_utf8("\x80"));          // a stray continuation byte
  CHECK_FALSE(decode_utf8("\x9b"));          // a raw C1 byte
  CHECK_FALSE(decode_utf8("\xc3"));          // cut short
  CHECK_FALSE(decode_utf8("\xe2\x80"));      // cut short
  CHECK_FALSE(decode_utf8("\xf0\x9f\x98"));  // cut short
  CHECK_FALSE(
      decode_utf8("\xc3"
                  "A"));                         // not a continuation
  CHECK_FALSE(decode_utf8("\xc0\xaf"));          // overlong '/'
  CHECK_FALSE(decode_utf8("\xc1\xbf"));          // overlong
  CHECK_FALSE(decode_utf8("\xe0\x80\xaf"));      // overlong '/'
  CHECK_FALSE(decode_utf8("\xe0\x9f\xbf"));      // overlong U+07FF
  CHECK_FALSE(decode_utf8("\xf0\x80\x80\xaf"));  // overlong '/'
  CHECK_FALSE(decode_utf8("\xf0\x8f\xbf\xbf"));  // overlong U+FFFF
  CHECK_FALSE(decode_utf8("\xed\xa0\x80"));      // surrogate U+D800
  CHECK_FALSE(decode_utf8("\xed\xbf\xbf"));      // surrogate U+DFFF
  CHECK_FALSE(decode_utf8("\xf4\x90\x80\x80"));  // U+110000
  CHECK_FALSE(decode_utf8("\xf5\x80\x80\x80"));
  CHECK_FALSE(decode_utf8("\xff"));
  CHECK(decode_utf8("\xed\x9f\xbf"));  // U+D7FF, just below the surrogates
}

TEST_CASE("terminal_safe: C0 controls, DEL and ESC become escapes", "[core][terminal]") {
  CHECK(terminal_safe("\x1b[2Jall good") == "\\x1b[2Jall good");
  CHECK(terminal_safe("bell\a") == "bell\\x07");
  CHECK(terminal_safe(std::string("nul\0x", 5)) == "nul\\x00x");
  CHECK(terminal_safe("a\tb\nc\rd") == "a\\tb\\nc\\rd");  // one field: no line break survives
  CHECK(terminal_safe("\x7f") == "\\x7f");
  CHECK(terminal_safe("\x08\x0b\x0c\x1f") == "\\x08\\x0b\\x0c\\x1f");
  for (int c = 0; c < 0x20; ++c) {
    const std::string out = terminal_safe(std::string(1, static_cast<char>(c)));
    INFO(c);
    CHECK(inert(out));
    CHECK(out.front() == '\\');
  }
}

TEST_CASE("terminal_safe: C1 controls, raw or UTF-8-encoded, become escapes", "[core][terminal]") {
  CHECK(terminal_safe("\xc2\x9b"
                      "2J") == "\\u009b2J");  // U+009B, the 8-bit CSI
  CHECK(terminal_safe("\xc2\x80\xc2\x9f") == "\\u0080\\u009f");
  CHECK(terminal_safe("\x9b"
                      "2J") == "\\x9b2J");  // the raw byte is not valid UTF-8
  for (int c = 0x80; c <= 0x9F; ++c) {
    const std::string raw(1, static_cast<char>(c));
    const std::string encoded = {static_cast<char>(0xC2), static_cast<char>(c)};
    INFO(c);
    CHECK(inert(terminal_safe(raw)));
    CHECK(inert(terminal_safe(encoded)));
    CHECK_THAT(terminal_safe(encoded), Contains("\\u00"));
  }
  CHECK(terminal_safe("\xc2\xa0\xc2\xa9") == "\xc2\xa0\xc2\xa9");  // U+00A0 and U+00A9 are shown as they are
}

TEST_CASE("terminal_safe: bidirectional overrides and isolates become escapes", "[core][terminal]") {
  CHECK(terminal_safe("abc\xe2\x80\xae"
                      "cba") == "abc\\u202ecba");  // RIGHT-TO-LEFT OVERRIDE
  CHECK(terminal_safe("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad") == "\\u202a\\u202b\\u202c\\u202d");
  CHECK(terminal_safe("\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9") == "\\u2066\\u2067\\u2068\\u2069");
  // Their neighbours are ordinary characters.
  CHECK(terminal_safe("\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa") ==
        "\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa");
}

TEST_CASE("terminal_safe: valid printable UTF-8 passes unchanged", "[core][terminal]") {
  for (const std::string text :
       {"plain ascii ~!@#$%^&*()", "caf\xc3\xa9 na\xc3\xafve \xc3\x85ngstr\xc3\xb6m",
        "\xe6\xbc\xa2\xe5\xad\x97 \xe3\x81\x8b\xe3\x81\xaa", "\xf0\x9f\x98\x80\xf0\x9f\x9a\x80",
        "\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d", "back\\slash \\x1b stays"}) {
    CHECK(terminal_safe(text) == text);
  }
  CHECK(terminal_safe("") == "");
}

TEST_CASE("terminal_safe: invalid UTF-8 shows every byte", "[core][terminal]") {
  CHECK(terminal_safe("caf\xe9") == "caf\\xe9");  // Latin-1
  CHECK(terminal_safe("\xe2\x80"
                      "A") == "\\xe2\\x80A");                          // cut short
  CHECK(terminal_safe("ok \xf0\x9f\x98") == "ok \\xf0\\x9f\\x98");     // cut at the end
  CHECK(terminal_safe("\xc0\xaf") == "\\xc0\\xaf");                    // overlong '/'
  CHECK(terminal_safe("\xe0\x80\x9b") == "\\xe0\\x80\\x9b");           // overlong C1 CSI
  CHECK(terminal_safe("\xc1\x9b") == "\\xc1\\x9b");                    // overlong ESC
  CHECK(terminal_safe("\xed\xa0\x80") == "\\xed\\xa0\\x80");           // surrogate
  CHECK(terminal_safe("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
}

TEST_CASE("terminal_safe: every byte string comes out inert and stable", "[core][terminal]") {
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  const std::string once = terminal_safe(all);
  CHECK(inert(once));
  CHECK(terminal_safe(once) == once);  // escaping twice changes nothing: the output is plain ASCII here
  const std::string mixed = "n\xc3\xa9\x1b]0;title\x07\xc2\x9b\xe2\x80\xae\xe6\xbc\xa2\xff";
  CHECK(terminal_safe(mixed) == "n\xc3\xa9\\x1b]0;title\\x07\\u009b\\u202e\xe6\xbc\xa2\\xff");
  CHECK(inert(terminal_safe(mixed)));
}

TEST_CASE("visible_text ascii: printable ASCII only, reversible", "[core][terminal]") {
  CHECK(visible_text("caf\xc3\xa9", Visible::ascii) == "caf\\xc3\\xa9");  // valid UTF-8 too
  CHECK(visible_text("a\\b\n\x1b", Visible::ascii) == "a\\\\b\\n\\x1b");
  CHECK(visible_text("\xe2\x80\xae", Visible::ascii) == "\\xe2\\x80\\xae");
}

TEST_CASE("markup_escape: XML special characters, forbidden characters and terminal controls", "[core][markup]") {
  CHECK(markup_escape("a&b <\"q'>") == "a&amp;b &lt;&quot;q&apos;&gt;");
  CHECK(markup_escape("\t\n\r") == "&#9;&#10;&#13;");
  CHECK(markup_escape("\x1b[2J\x01") == "?[2J?");  // XML 1.0 forbids them
  CHECK(markup_escape("\x7f\xc2\x9b\xe2\x80\xae") == "&#x007f;&#x009b;&#x202e;");
  CHECK(markup_escape("caf\xe9 \xc0\xaf") == "caf? ??");     // not UTF-8
  CHECK(markup_escape("\xef\xbf\xbe\xef\xbf\xbf") == "??");  // U+FFFE, U+FFFF
  CHECK(markup_escape("caf\xc3\xa9 \xe6\xbc\xa2 \xf0\x9f\x98\x80") == "caf\xc3\xa9 \xe6\xbc\xa2 \xf0\x9f\x98\x80");
}

TEST_CASE("markdown_escape: a cell shows its text and cannot break the table", "[core][markup]") {
  CHECK(markdown_escape("a|b") == "a\\|b");
  CHECK(markdown_escape("*x* _y_ `z` [l](u) <b> #1 &amp;") ==
        "\\*x\\* \\_y\\_ \\`z\\` \\[l\\](u) \\<b\\> \\#1 \\&amp;");
  CHECK(markdown_escape("two\nlines") == "two\\\\nlines");  // shown as two\nlines
  CHECK(markdown_escape("\x1b[2J\xc2\x9b\xe2\x80\xae") == "\\\\x1b\\[2J\\\\u009b\\\\u202e");
  CHECK(markdown_escape("caf\xc3\xa9") == "caf\xc3\xa9");
}
