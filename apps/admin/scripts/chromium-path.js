// Where the browser tests find Chromium: CHROMIUM_PATH, else Debian's package (apt-get install -y chromium).
// Never a downloaded browser. Shared by the tests (test/support/browser.ts) and `npm test` (scripts/test.mjs).
const { existsSync } = require('node:fs');

/** @returns {string | undefined} */
function chromiumPath() {
  return [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean).find((p) => existsSync(p));
}

module.exports = { chromiumPath };
