'use strict';
/**
 * npm's `install` script: builds the addon against the system RocksDB with node-gyp, using the
 * Node-API headers of the `node-api-headers` package (node-gyp downloads nothing).
 *
 * It never fails `npm install`. When RocksDB, a compiler, make or Python is missing, or the
 * build fails, it prints one message naming what to install, records the reason in
 * build/install-status.json (the loader's RocksDBUnavailableError repeats it: npm hides the
 * output of install scripts that succeed) and exits 0; nest-streams then falls back to
 * @nxtedition/rocksdb.
 *
 * NEST_STREAMS_ROCKSDB_SKIP_BUILD=1 skips the build.
 */
const { spawnSync } = require('node:child_process');
const {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} = require('node:fs');
const { availableParallelism } = require('node:os');
const { delimiter, dirname, join } = require('node:path');
const { flags } = require('./rocksdb-flags');

const ROOT = join(__dirname, '..');
const BUILD = join(ROOT, 'build');
const STATUS = join(BUILD, 'install-status.json');
const LOG = join(BUILD, 'install.log');
const HINT =
  'install RocksDB and a C++ toolchain, then run `npm rebuild @nest-streams/rocksdb`: ' +
  'on Debian/Ubuntu `apt-get install librocksdb-dev build-essential python3`, ' +
  'on macOS `brew install rocksdb` (and `xcode-select --install`)';

function onPath(command) {
  if (command.includes('/')) return isExecutable(command);
  return (process.env.PATH ?? '')
    .split(delimiter)
    .some((dir) => dir && isExecutable(join(dir, command)));
}

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** What is missing to build, as words for the message. */
function missingTools() {
  const found = flags();
  const missing = [];
  if (found.includeDir === undefined || found.libDir === undefined) {
    missing.push('the RocksDB headers and library');
  }
  const compiler = (process.env.CXX ?? '').split(/\s+/)[0];
  if (compiler ? !onPath(compiler) : !['c++', 'g++', 'clang++'].some(onPath)) {
    missing.push('a C++ compiler');
  }
  if (!onPath('make')) missing.push('make');
  if (!process.env.PYTHON && !['python3', 'python'].some(onPath)) missing.push('Python 3');
  return missing;
}

function findOnPath(command) {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, command))
    .find(isExecutable);
}

/**
 * node-gyp: npm's own (npm names it in npm_config_node_gyp when it runs this script), a local
 * install, the one bundled with the npm on the PATH, or a node-gyp on the PATH.
 */
function nodeGypCommand() {
  const fromNpm = process.env.npm_config_node_gyp;
  if (fromNpm) return [process.execPath, fromNpm];
  try {
    return [process.execPath, require.resolve('node-gyp/bin/node-gyp.js')];
  } catch {
    // not installed locally
  }
  const npm = findOnPath('npm');
  if (npm !== undefined) {
    const bundled = join(
      dirname(realpathSync(npm)),
      '..',
      'node_modules',
      'node-gyp',
      'bin',
      'node-gyp.js',
    );
    if (existsSync(bundled)) return [process.execPath, bundled];
  }
  const nodeGyp = findOnPath('node-gyp');
  return nodeGyp === undefined ? undefined : [nodeGyp];
}

function notBuilt(reason) {
  mkdirSync(BUILD, { recursive: true });
  writeFileSync(STATUS, `${JSON.stringify({ reason })}\n`);
  process.stderr.write(
    `@nest-streams/rocksdb: the native addon was not built (${reason}). To build it, ${HINT}. ` +
      'Until then nest-streams uses @nxtedition/rocksdb, without a shared block cache, ' +
      'write-buffer manager, memtable flush or WAL-off writes.\n',
  );
}

function main() {
  if (process.env.NEST_STREAMS_ROCKSDB_SKIP_BUILD === '1') {
    notBuilt('NEST_STREAMS_ROCKSDB_SKIP_BUILD=1');
    return;
  }
  const missing = missingTools();
  if (missing.length > 0) {
    notBuilt(`missing ${missing.join(', ')}`);
    return;
  }
  const nodeGyp = nodeGypCommand();
  if (nodeGyp === undefined) {
    notBuilt('node-gyp not found (npm normally brings it)');
    return;
  }
  const [command, ...prefix] = nodeGyp;
  // --nodedir: this package's gyp/common.gypi, with the headers from node-api-headers
  // (binding.gyp), instead of a headers tarball downloaded from the Node.js site.
  const build = spawnSync(
    command,
    [
      ...prefix,
      'rebuild',
      `--nodedir=${join(ROOT, 'gyp')}`,
      '--force-process-config',
      `--jobs=${availableParallelism()}`,
    ],
    {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      // npm hands its own `nodedir` config (e.g. Debian's npm sets /usr: the system Node's
      // headers) to node-gyp through the environment, where it wins over --nodedir.
      env: { ...process.env, npm_config_nodedir: join(ROOT, 'gyp') },
    },
  );
  const output = `${build.stdout ?? ''}${build.stderr ?? ''}${build.error ? String(build.error) : ''}`;
  mkdirSync(BUILD, { recursive: true });
  writeFileSync(LOG, output);
  if (build.status !== 0) {
    const firstError = output
      .split('\n')
      .find(
        (line) =>
          /error/i.test(line) &&
          !/^gyp (info|ERR! (stack|System|command|cwd|node|not ok))/.test(line),
      );
    notBuilt(`the build failed${firstError ? `: ${firstError.trim()}` : ''}; full log in ${LOG}`);
    return;
  }
  rmSync(STATUS, { force: true });
  process.stdout.write(`@nest-streams/rocksdb: built against RocksDB ${flags().version ?? ''}\n`);
}

try {
  main();
} catch (error) {
  try {
    notBuilt(
      `the install script failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  } catch {
    // Never fail the install.
  }
}
process.exitCode = 0;
