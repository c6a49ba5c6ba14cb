// Runs named integration suites (jest.integration.config.js) in a child process with the given
// environment: the subset runners of one Kafka client or group protocol share it.
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');

/**
 * Runs `suites` (paths from the repository root) with `jestArgs` after them and `env` as the
 * child's environment; returns jest's exit status (1 when it was killed).
 */
function runIntegrationSuites({ suites, jestArgs, env }) {
  const result = spawnSync(
    process.execPath,
    [
      require.resolve('jest/bin/jest'),
      '--config',
      join(root, 'jest.integration.config.js'),
      ...suites.map((s) => join(root, s)),
      ...jestArgs,
    ],
    { stdio: 'inherit', env },
  );
  return result.status ?? 1;
}

module.exports = { runIntegrationSuites };
