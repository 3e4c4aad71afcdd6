#!/usr/bin/env bash
# The package test (tests/package/CMakeLists.txt): builds the .deb of this build with CPack,
# checks its dependencies, unpacks it into a scratch root and plays, verifies and validates with
# the unpacked referee and sample bots only.
#
#   run.sh BUILD_DIR OUT_DIR
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BUILD_DIR OUT_DIR" >&2; exit 2; }
build=$1 out=$2
rm -rf "$out"
mkdir -p "$out"
fail() { echo "FAIL: $*" >&2; exit 1; }

cpack --config "$build/CPackConfig.cmake" -B "$out/pkg" >"$out/cpack.log" 2>&1 || { cat "$out/cpack.log" >&2; fail "cpack"; }
debs=("$out"/pkg/stellar-arena_*.deb)
[ -f "${debs[0]}" ] || fail "no stellar-arena_*.deb in $out/pkg"
deb=${debs[0]}
echo "package: $deb ($(stat -c %s "$deb") bytes)"

# Dependencies: found by dpkg-shlibdeps from what the programs link.
depends=$(dpkg-deb --field "$deb" Depends)
echo "Depends: $depends"
for lib in libc6 libstdc++6 libfmt9 libseccomp2 libsodium23; do
  [[ "$depends" == *"$lib"* ]] || fail "the package does not depend on $lib"
done

root="$out/root"
dpkg-deb -x "$deb" "$root"
referee="$root/usr/bin/referee"
bots="$root/usr/libexec/stellar-arena/sample_bots"
for f in "$referee" "$bots/random_bot" "$bots/greedy_bot" "$bots/random_bot.py" \
         "$root/usr/share/stellar-arena/protocol/schema/request.schema.json" \
         "$root/usr/share/stellar-arena/sample_bots/random_bot.cpp" \
         "$root/usr/share/doc/stellar-arena/README.md" "$root/usr/share/doc/stellar-arena/games/stellar.md"; do
  [ -e "$f" ] || fail "the package lacks ${f#"$root"}"
done
# Every game the installed referee lists brings its golden transcript and its wire schemas, if its
# source folder has them (installed by arena_game(): no list of games here).
src=$(cd "$(dirname "$0")/../.." && pwd)
for game in $("$referee" games | awk '{print $1}'); do
  f="$root/usr/share/stellar-arena/protocol/transcripts/$game/match.jsonl"
  [ -e "$f" ] || fail "the package lacks ${f#"$root"}"
  if [ -d "$src/referee/games/$game/schema" ]; then
    f="$root/usr/share/stellar-arena/protocol/schema/$game/view.schema.json"
    [ -e "$f" ] || fail "the package lacks ${f#"$root"}"
  fi
done
! find "$root" -name '*test*' -o -name 'bench_*' -o -name 'hostile_bot' | grep -q . || fail "the package holds test programs"

# The starter kits (sample_bots/starter/): their sources and READMEs, the built C++ kit; the installed
# READMEs name the installed paths, never the checkout's.
kits="$root/usr/share/stellar-arena/starter"
for f in "$kits/README.md" "$kits/cpp/README.md" "$kits/cpp/bot.cpp" "$kits/python/README.md" "$kits/python/bot.py" \
         "$kits/javascript/README.md" "$kits/javascript/bot.js" "$root/usr/libexec/stellar-arena/starter/starter_cpp"; do
  [ -e "$f" ] || fail "the package lacks ${f#"$root"}"
done
for readme in "$kits/README.md" "$kits"/*/README.md; do
  ! grep -nE '(^|[ "`(])(build/|sample_bots/starter/|\.\./\.\./)' "$readme" || fail "${readme#"$root"} names a checkout path"
done
grep -q '/usr/bin/referee validate "python3 /usr/share/stellar-arena/starter/python/bot.py"' "$kits/README.md" ||
  fail "the installed starter README does not name the installed referee and kit"
grep -q '/usr/libexec/stellar-arena/starter/starter_cpp' "$kits/cpp/README.md" ||
  fail "the installed C++ kit README does not name the installed kit"

"$referee" --version
# Generous limits: the machine may be busy with the rest of the suite.
"$referee" play --bot "$bots/greedy_bot" --bot "/usr/bin/python3 $bots/random_bot.py" --seed 3 --time-scale 10 \
  --out "$out/logs" --replay "$out/match.jsonl" >"$out/match.json"
"$referee" verify "$out/match.jsonl"
"$referee" play --game stella_quest --bot "$bots/random_bot" --bot "$bots/greedy_bot" --bot "$bots/random_bot" \
  --seed 4 --time-scale 10 --out "$out/logs" --replay "$out/quest.jsonl" >/dev/null
"$referee" verify "$out/quest.jsonl"
# validate finds its default opponents beside the installed referee.
"$referee" validate "$bots/random_bot" --games 1 --seed 5 --time-scale 10 --out "$out/validate" >"$out/validate.log" 2>&1 ||
  { cat "$out/validate.log" >&2; fail "validate with the installed sample bots"; }
grep -q "vs greedy_bot as seat 1" "$out/validate.log" || { cat "$out/validate.log" >&2; fail "validate did not play the installed greedy_bot"; }

# A kit from its installed place, against the installed referee: the Python kit validates, the C++
# kit plays (and its replay verifies).
"$referee" validate "/usr/bin/python3 $kits/python/bot.py" --games 1 --seed 6 --time-scale 10 --out "$out/validate-kit" \
  >"$out/validate-kit.log" 2>&1 || { cat "$out/validate-kit.log" >&2; fail "validate the installed Python starter kit"; }
grep -q "^PASS" "$out/validate-kit.log" || { cat "$out/validate-kit.log" >&2; fail "the installed Python kit did not PASS"; }
"$referee" play --game stella_quest --bot "$root/usr/libexec/stellar-arena/starter/starter_cpp" --bot "$bots/random_bot" \
  --seed 7 --time-scale 10 --out "$out/logs" --replay "$out/kit.jsonl" >/dev/null || fail "play the installed C++ starter kit"
"$referee" verify "$out/kit.jsonl"

# The rules library (docs/library.md): the Python module imports and plays from the unpacked
# tree, and a C++ program finds the library with find_package and links it.
for f in "$root/usr/include/stellar_arena/game.hpp" "$root/usr/lib/libstellar_arena.a" \
         "$root/usr/lib/cmake/stellar_arena/stellar_arenaConfig.cmake" \
         "$root/usr/lib/python3/dist-packages/stellar_arena/__init__.py" "$bots/lookahead_bot.py"; do
  [ -e "$f" ] || fail "the package lacks ${f#"$root"}"
done
PYTHONPATH="$root/usr/lib/python3/dist-packages" /usr/bin/python3 -c '
import stellar_arena
g = stellar_arena.Game("stella_quest", 1)
print("python: stellar_arena plays", g.name, "to scores", g.rollout(2))' || fail "the installed Python module"
consumer="$out/consumer"
mkdir -p "$consumer"
cat >"$consumer/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.22)
project(consumer LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
find_package(stellar_arena REQUIRED)
add_executable(consumer main.cpp)
target_link_libraries(consumer PRIVATE stellar_arena::stellar_arena)
CMAKE
cat >"$consumer/main.cpp" <<'CPP'
#include <iostream>
#include <stellar_arena/game.hpp>
int main() {
  stellar_arena::Game game("stellar", 3);
  const auto scores = game.clone().rollout(4);
  std::cout << "c++: " << game.name() << " to act " << *game.to_act() << ", rollout scores " << scores[0] << " "
            << scores[1] << "\n";
}
CPP
cmake -S "$consumer" -B "$consumer/build" -DCMAKE_PREFIX_PATH="$root/usr" >"$out/consumer.log" 2>&1 &&
  cmake --build "$consumer/build" >>"$out/consumer.log" 2>&1 || { cat "$out/consumer.log" >&2; fail "a C++ program with find_package(stellar_arena)"; }
"$consumer/build/consumer" || fail "the C++ program linked with the installed library"

echo "OK: the package installs, plays, verifies and validates (its starter kits too); its rules library builds into a program and imports in Python"
