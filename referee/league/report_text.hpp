#pragma once
// Text pieces shared by the standings writers (standings_report.cpp, standings_junit.cpp); not
// part of the league's interface.

#include <string>

#include "referee/league/standings.hpp"

namespace arena::league::report_text {

// x, or 0 when it is not finite (every number a writer prints is finite).
double finite(double x);

// "1 timeout, 2 crash": a bot's faults by kind.
std::string faults_text(const BotStanding& b);

// Milliseconds with two decimals.
std::string ms(double x);

// The one-line summary of a bot (games, points, W/D/L, Elo, decision times, stderr).
std::string bot_summary(const BotStanding& b);

}  // namespace arena::league::report_text
