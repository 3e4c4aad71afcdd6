#!/usr/bin/env bash
# Installs what the browser test of the web viewer needs (tests/browser, run by CTest): Debian's
# Chromium, Node.js and npm when missing (non-interactively), then playwright-core at the version
# locked in tests/browser/package-lock.json into tests/browser/node_modules (git-ignored). These
# are test-only dependencies: `referee html` writes a page that needs no browser tooling, and
# scripts/play.sh does not call this; scripts/test.sh does. Idempotent: a second run installs
# nothing and leaves node_modules alone while the lock file is unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
dpkg-query -W -f='${Status}' chromium 2>/dev/null | grep -q "install ok installed" || missing+=(chromium)
# Node.js may come from elsewhere than Debian (a nodejs package that bundles npm): the commands
# are what the test needs.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup-browser: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup-browser: need root or sudo to install ${missing[*]}" >&2; exit 1; }
    sudo="sudo -n"  # never wait for a password
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm ci starts from an empty node_modules; the copy of the lock file it leaves marks it done.
browser=tests/browser
stamp=$browser/node_modules/.installed-package-lock.json
if ! cmp -s "$browser/package-lock.json" "$stamp"; then
  echo "setup-browser: npm ci in $browser" >&2
  (cd "$browser" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$browser/package-lock.json" "$stamp"
fi
