// The match data a viewer page embeds (render/page_data.hpp): the element's base64 text, gunzipped
// with Node's zlib, parsed as JSON. Shared by viewer_test.js and its check modules.
'use strict';

const assert = require('assert');
const fs = require('fs');
const zlib = require('zlib');

// The data block's text as the page holds it (base64), and its data.
function pageData(file) {
  const html = fs.readFileSync(file, 'utf8');
  const m = /<script type="text\/plain" id="match-data" data-encoding="gzip base64">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(m, file + ' has no match data');
  return { block: m[1], data: JSON.parse(zlib.gunzipSync(Buffer.from(m[1], 'base64')).toString('utf8')) };
}

module.exports = { pageData, embeddedData: (file) => pageData(file).data };
