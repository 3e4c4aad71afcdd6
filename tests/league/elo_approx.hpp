#pragma once
// An Elo figure compared at the precision the standings print (0.01).

#include <catch2/catch.hpp>

inline Catch::Detail::Approx elo_near(double x) {
  return Catch::Detail::Approx(x).margin(0.01);
}
