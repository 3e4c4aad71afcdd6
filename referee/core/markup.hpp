#pragma once
// Text escaped for where it goes: XML and HTML (the league's JUnit report, the web viewer's page
// title), Markdown (the league's standings.md), and terminals (everything the referee prints for
// people). Bytes from a bot (its name and version, its replies, its stderr) reach all of them, so
// every escaper here accepts arbitrary bytes, including invalid UTF-8, and never throws.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace arena {

// ---- UTF-8 ----------------------------------------------------------------------------------

struct Utf8Char {
  char32_t code = 0;
  std::size_t size = 0;  // bytes, 1 to 4
};

// The character at the start of `text`, or nullopt when its first bytes are not valid UTF-8
// (RFC 3629): empty text, a stray continuation byte, a lead byte C0, C1 or F5-FF, a sequence cut
// short, an overlong form, a surrogate (U+D800-U+DFFF) or a code point above U+10FFFF.
std::optional<Utf8Char> decode_utf8(std::string_view text);

// The characters a terminal acts on instead of showing, or that reorder what it shows: C0
// controls (tab and line feed included), DEL, the C1 controls U+0080-U+009F (U+009B is a CSI,
// as good as ESC [ on many terminals) and the bidirectional embeddings, overrides
// (U+202A-U+202E) and isolates (U+2066-U+2069).
bool acts_on_terminal(char32_t code);

// ---- terminals ------------------------------------------------------------------------------

enum class Visible {
  // For people: valid UTF-8 that a terminal shows (accents, CJK, emoji) is kept; a backslash is
  // kept, so text escaped once (a fault's raw bytes) reads the same when escaped again.
  terminal,
  // For records (a fault's raw bytes): printable ASCII only, every other byte escaped, and a
  // backslash doubled, so the original bytes can be read back.
  ascii,
};

// `bytes` as text that is safe to print on a terminal and shows every byte: tab, line feed and
// carriage return as \t \n \r, other C0 controls, DEL and bytes that are not valid UTF-8 as \xNN
// (ESC is \x1b), and the C1 and bidirectional characters of acts_on_terminal() as \uNNNN (the
// two-byte CSI C2 9B is \u009b; a lone byte 9B, invalid UTF-8, is \x9b). The result is one line:
// multi-line text (a stderr tail) is escaped line by line by its printer.
std::string visible_text(std::string_view bytes, Visible mode);

// visible_text(text, Visible::terminal): every bot-derived field the referee prints for people
// (names, versions, fault messages, offending bytes, stderr lines, notes) goes through it.
std::string terminal_safe(std::string_view text);

// ---- XML, HTML, Markdown --------------------------------------------------------------------

// Escapes & < > " ' as entities. Characters XML 1.0 forbids (controls other than tab, LF, CR,
// U+FFFE, U+FFFF, bytes that are not valid UTF-8) become '?'; tab, LF and CR become character
// references so that attribute values keep them; DEL and the C1 and bidirectional characters of
// acts_on_terminal() become character references too (&#x9b;): a parser reads back the same
// text, and the file is safe to print on a terminal.
std::string markup_escape(std::string_view text);

// Text for a Markdown table cell or list item: first made terminal_safe (so line breaks cannot
// end the row and the file is safe to print), then \ | * _ ` [ ] < > # & are backslash-escaped,
// so that the cell shows the text as it is and cannot format or break the table.
std::string markdown_escape(std::string_view text);

}  // namespace arena
