import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The nested package holding nodefluent `kafka-streams` and `node-rdkafka`. */
export const NODEFLUENT_PEER_DIR = resolve(__dirname, '..', 'peers', 'nodefluent-kafka-streams');

/**
 * Installs the nodefluent peer's package (`npm ci`, or `npm install` without a lockfile)
 * unless its native client is already built. The first install compiles librdkafka (about
 * five minutes on two cores); later runs reuse it.
 *
 * @throws Error with npm's output when the install fails.
 */
export function installNodefluentPeer(log: (line: string) => void): void {
  const binding = join(
    NODEFLUENT_PEER_DIR,
    'node_modules',
    'node-rdkafka',
    'build',
    'Release',
    'node-librdkafka.node',
  );
  const library = join(NODEFLUENT_PEER_DIR, 'node_modules', 'kafka-streams', 'package.json');
  if (existsSync(binding) && existsSync(library)) return;
  log('installing nodefluent kafka-streams and node-rdkafka (compiles librdkafka, minutes)...');
  const started = Date.now();
  const lockfile = existsSync(join(NODEFLUENT_PEER_DIR, 'package-lock.json'));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const install = spawnSync(npm, [lockfile ? 'ci' : 'install', '--no-audit', '--no-fund'], {
    cwd: NODEFLUENT_PEER_DIR,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (install.error || install.status !== 0 || !existsSync(binding)) {
    const output = `${install.stdout ?? ''}${install.stderr ?? ''}`.trim().split('\n').slice(-20);
    throw new Error(`installing the nodefluent peer failed:\n${output.join('\n')}`);
  }
  log(`installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
