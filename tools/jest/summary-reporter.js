// A Jest reporter that prints one closing line per run ("unit: N passed, N failed") and
// records the counts and the failed tests under .test-results/, so .ci/run can print the grand
// total and, last, what failed: a CI log cut to its tail still names every failure.
const { mkdirSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

/** The first lines of a failure message, without colours, short enough for a log's tail. */
function excerpt(message) {
  return (
    String(message)
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.length > 0)
      .slice(0, 8)
      .join(' | ')
      .slice(0, 1200)
  );
}

class SummaryReporter {
  constructor(globalConfig, options) {
    this.label = (options && options.label) || 'tests';
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const passed = results.numPassedTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    const failures = [];
    for (const suite of results.testResults) {
      const file = relative(this.rootDir, suite.testFilePath);
      for (const test of suite.testResults) {
        if (test.status !== 'failed') continue;
        failures.push(`${file} › ${test.fullName}: ${excerpt(test.failureMessages.join('\n'))}`);
      }
      if (suite.testExecError) {
        failures.push(`${file} (the suite did not run): ${excerpt(suite.testExecError.message)}`);
      }
    }
    const dir = join(this.rootDir, '.test-results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `${this.label}.json`),
      JSON.stringify({ passed, failed, skipped, failures }),
    );
    process.stdout.write(
      `\n${this.label}: ${passed} passed, ${failed} failed, ${skipped} skipped\n`,
    );
  }
}

module.exports = SummaryReporter;
