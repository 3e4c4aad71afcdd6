// Named checks for the browser tests: each passes unless its function throws (assert's messages
// say what differed); the tally decides the exit code.
'use strict';

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

module.exports = { check, tally };
