// Empty on purpose: the targets arena_pch and arena_pch_tests (top CMakeLists.txt) compile it only
// to precompile the heaviest headers once, for every other target to reuse.
