// A Jest reporter that prints one closing line per run ("unit: N passed, N failed") and
// records the counts under .test-results/, so .ci/run can print the grand total.
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

class SummaryReporter {
  constructor(globalConfig, options) {
    this.label = (options && options.label) || 'tests';
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const passed = results.numPassedTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    const dir = join(this.rootDir, '.test-results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${this.label}.json`), JSON.stringify({ passed, failed, skipped }));
    process.stdout.write(
      `\n${this.label}: ${passed} passed, ${failed} failed, ${skipped} skipped\n`,
    );
  }
}

module.exports = SummaryReporter;
