#!/usr/bin/env node
// `npm run test:differential [-- --seeds N] [-- --records N] [-- --scenario NAME] [-- <jest args>]`:
// the differential suite (Java's TopologyTestDriver against ours) at the size `npm test` runs
// (5 seeds x 200 records per scenario), or larger. The options set DIFFERENTIAL_SEEDS,
// DIFFERENTIAL_RECORDS and DIFFERENTIAL_SCENARIO; other arguments go to Jest.
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const OPTIONS = {
  '--seeds': 'DIFFERENTIAL_SEEDS',
  '--records': 'DIFFERENTIAL_RECORDS',
  '--scenario': 'DIFFERENTIAL_SCENARIO',
  '--first-seed': 'DIFFERENTIAL_FIRST_SEED',
};
const env = { ...process.env };
const jestArgs = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const [name, inline] = args[i].split('=', 2);
  if (OPTIONS[name] === undefined) {
    jestArgs.push(args[i]);
    continue;
  }
  const value = inline ?? args[++i];
  if (value === undefined) {
    process.stderr.write(`${name} needs a value\n`);
    process.exit(2);
  }
  env[OPTIONS[name]] = value;
}
process.stdout.write(
  `[differential] seeds ${env.DIFFERENTIAL_SEEDS ?? 5} from ${env.DIFFERENTIAL_FIRST_SEED ?? 1}, records ${env.DIFFERENTIAL_RECORDS ?? 200}${env.DIFFERENTIAL_SCENARIO ? `, scenario ${env.DIFFERENTIAL_SCENARIO}` : ''}\n`,
);
const result = spawnSync(
  process.execPath,
  [
    require.resolve('jest/bin/jest'),
    '--config',
    join(__dirname, '..', '..', 'jest.differential.config.js'),
    ...jestArgs,
  ],
  { stdio: 'inherit', env },
);
process.exit(result.status ?? 1);
