#pragma once

namespace arena {

// A seat at the table: 0 .. seats-1. Seat 0 is the first --bot on the command line.
using Seat = int;

}  // namespace arena
