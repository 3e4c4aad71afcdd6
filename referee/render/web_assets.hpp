#pragma once
// The web viewer's sources, embedded into the binary by arena_embed_text() (referee/embed_text.cmake)
// after referee/render/CMakeLists.txt joined their parts in order: the page is page_head.html then
// viewer.html, the style page.css then viewer.css, the script viewer.js then its parts
// viewer_generic.js, viewer_panels.js, viewer_result.js, viewer_score.js, viewer_nav.js (all in
// referee/render/web/); the definitions are generated.

#include <string>

namespace arena::render::web {

std::string viewer_html();  // the page skeleton with its markers (see html.cpp)
std::string viewer_css();
std::string viewer_js();

}  // namespace arena::render::web
