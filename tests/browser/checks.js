// Named checks for the browser tests: each passes unless its function throws (assert's messages
// say what differed); the tally decides the exit code. And the browser: Debian's Chromium driven by
// playwright-core, or an exit that names what is missing (a test fails, never skips, without them).
'use strict';

const fs = require('fs');
const path = require('path');

const CHROMIUM = '/usr/bin/chromium';

function chromiumOrExit() {
  const missing = [];
  if (!fs.existsSync(CHROMIUM)) missing.push(CHROMIUM + ' (Debian package chromium)');
  if (!fs.existsSync(path.join(__dirname, 'node_modules', 'playwright-core', 'package.json'))) missing.push('playwright-core (npm ci)');
  if (missing.length) {
    console.error('FAIL: missing ' + missing.join(', ') + '; run scripts/setup-browser.sh');
    process.exit(1);
  }
  return require('playwright-core').chromium;
}

const tally = { passed: 0, failed: 0 };

async function check(name, fn) {
  try {
    await fn();
    tally.passed++;
    console.log('ok   ' + name);
  } catch (e) {
    tally.failed++;
    console.log('FAIL ' + name + '\n     ' + String(e && e.message ? e.message : e).split('\n').join('\n     '));
  }
}

module.exports = { check, tally, CHROMIUM, chromiumOrExit };
