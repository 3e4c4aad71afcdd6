#pragma once
// Text for XML and HTML (content and attribute values): the league's JUnit report, the web
// viewer's page title.

#include <string>
#include <string_view>

namespace arena {

// Escapes & < > " ' as entities. Characters XML 1.0 forbids (controls other than tab, LF, CR)
// become '?'; tab, LF and CR become character references so that attribute values keep them.
std::string markup_escape(std::string_view text);

}  // namespace arena
