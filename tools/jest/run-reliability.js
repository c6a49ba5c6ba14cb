#!/usr/bin/env node
// `npm run test:reliability [-- --full] [-- <jest args>]`: runs the reliability suite at the
// reduced size CI uses, or at full size with --full (RELIABILITY_SIZE=full). Other arguments
// go to Jest (a test path pattern, -t NAME).
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const args = process.argv.slice(2);
// `npm run test:reliability --full` (without `--`) reaches us as npm_config_full.
const full = args.includes('--full') || process.env.npm_config_full === 'true';
const jestArgs = args.filter((a) => a !== '--full');
const size = full ? 'full' : (process.env.RELIABILITY_SIZE ?? 'reduced');
process.stdout.write(`[reliability] size: ${size}\n`);
const result = spawnSync(
  process.execPath,
  [
    require.resolve('jest/bin/jest'),
    '--config',
    join(__dirname, '..', '..', 'jest.reliability.config.js'),
    ...jestArgs,
  ],
  { stdio: 'inherit', env: { ...process.env, RELIABILITY_SIZE: size } },
);
process.exit(result.status ?? 1);
