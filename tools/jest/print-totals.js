// Prints the grand total of the suites npm test ran, from the counts summary-reporter.js left in
// .test-results/<suite>.json (folders there hold a suite's own reports and are skipped), then
// every failed test with the first lines of its message, so the tail of a CI log says what failed.
// Used by .ci/run; its exit status is the test run's, passed in STATUS, so a failed run never
// reads as 0.
const fs = require('fs');
const path = require('path');

const dir = path.join(process.cwd(), '.test-results');
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
  const file = path.join(dir, name);
  if (!name.endsWith('.json') || !fs.statSync(file).isFile()) continue;
  const counts = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed += counts.passed;
  failed += counts.failed;
  skipped += counts.skipped;
  for (const failure of counts.failures ?? [])
    failures.push(`${name.replace(/\.json$/, '')}: ${failure}`);
}
if (process.env.STATUS !== '0' && failed === 0) failed = 1;
for (const failure of failures) console.log(`\nfailed: ${failure}`);
console.log(`\ntotal: ${passed} passed, ${failed} failed, ${skipped} skipped`);
