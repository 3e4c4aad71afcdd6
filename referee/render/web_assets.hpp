#pragma once
// The web viewer's sources (referee/render/web/viewer.html, viewer.css, and the script: viewer.js
// followed by its parts viewer_generic.js, viewer_panels.js, viewer_result.js, viewer_score.js, viewer_nav.js,
// joined in that order at build time), embedded into the binary by arena_embed_text()
// (referee/embed_text.cmake); the definitions are generated.

#include <string>

namespace arena::render::web {

std::string viewer_html();  // the page skeleton with its markers (see html.cpp)
std::string viewer_css();
std::string viewer_js();

}  // namespace arena::render::web
