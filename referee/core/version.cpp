#include "referee/core/version.hpp"

namespace arena {

std::string_view referee_version() {
  return ARENA_VERSION;
}

}  // namespace arena
