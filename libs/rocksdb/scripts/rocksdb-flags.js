'use strict';
/**
 * Finds the system RocksDB for binding.gyp and for the install script.
 *
 *   node scripts/rocksdb-flags.js include_dirs|libraries|ldflags|defines|json
 *
 * Where: `pkg-config rocksdb` when it knows the library; otherwise the usual prefixes
 * (/usr, /usr/local, Homebrew's /opt/homebrew) for `rocksdb/db.h` and `librocksdb.*`.
 * `ROCKSDB_INCLUDE_DIR` and `ROCKSDB_LIB_DIR` override both.
 *
 * The addon links the shared library (`-lrocksdb`): Debian's `librocksdb.a` cannot go into a
 * shared object (its thread-locals use the local-exec TLS model), so the addon exports RocksDB's
 * unique C++ symbols like every RocksDB binding does, and must not share a process with another
 * RocksDB (see the engine's binding guard).
 */
const { execFileSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const PREFIXES = ['/usr', '/usr/local', '/opt/homebrew', '/opt/local'];

function run(command, args) {
  try {
    return execFileSync(command, args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

function multiarchDirs(prefix) {
  const triplet = run('gcc', ['-print-multiarch']);
  return [
    triplet ? join(prefix, 'lib', triplet) : undefined,
    join(prefix, 'lib64'),
    join(prefix, 'lib'),
  ].filter((dir) => dir !== undefined);
}

function hasLibrary(dir, name) {
  return ['so', 'a', 'dylib'].some((ext) => existsSync(join(dir, `lib${name}.${ext}`)));
}

/** Where RocksDB's headers and library are, or `undefined` parts when not found. */
function locate() {
  const fromEnv = process.env.ROCKSDB_INCLUDE_DIR || process.env.ROCKSDB_LIB_DIR;
  if (!fromEnv && run('pkg-config', ['--exists', 'rocksdb']) !== undefined) {
    const includeDir = run('pkg-config', ['--variable=includedir', 'rocksdb']);
    const libDir = run('pkg-config', ['--variable=libdir', 'rocksdb']);
    return {
      source: 'pkg-config',
      version: run('pkg-config', ['--modversion', 'rocksdb']),
      includeDir:
        includeDir && existsSync(join(includeDir, 'rocksdb', 'db.h')) ? includeDir : undefined,
      libDir: libDir && hasLibrary(libDir, 'rocksdb') ? libDir : undefined,
      cflags: run('pkg-config', ['--cflags', 'rocksdb']) ?? '',
      libs: run('pkg-config', ['--libs', 'rocksdb']) ?? '-lrocksdb',
    };
  }
  const includeDirs = process.env.ROCKSDB_INCLUDE_DIR
    ? [process.env.ROCKSDB_INCLUDE_DIR]
    : PREFIXES.map((prefix) => join(prefix, 'include'));
  const libDirs = process.env.ROCKSDB_LIB_DIR
    ? [process.env.ROCKSDB_LIB_DIR]
    : PREFIXES.flatMap(multiarchDirs);
  const includeDir = includeDirs.find((dir) => existsSync(join(dir, 'rocksdb', 'db.h')));
  const libDir = libDirs.find((dir) => hasLibrary(dir, 'rocksdb'));
  return {
    source: 'search',
    version: undefined,
    includeDir,
    libDir,
    cflags: includeDir ? `-I${includeDir}` : '',
    libs: libDir ? `-L${libDir} -lrocksdb` : '-lrocksdb',
  };
}

function flags() {
  const found = locate();
  return {
    ...found,
    // The compiler searches /usr/include itself; naming it again breaks `#include_next`.
    include_dirs: found.includeDir && found.includeDir !== '/usr/include' ? [found.includeDir] : [],
    libraries: found.libs.split(/\s+/).filter(Boolean),
    // A library outside the loader's default path (e.g. /usr/local/lib) is found at run time.
    ldflags:
      found.libDir &&
      process.platform !== 'darwin' &&
      !/^\/(usr\/)?lib(64)?(\/|$)/.test(found.libDir)
        ? [`-Wl,-rpath,${found.libDir}`]
        : [],
  };
}

module.exports = { flags };

if (require.main === module) {
  const what = process.argv[2] ?? 'json';
  const result = flags();
  if (what === 'json') {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    // binding.gyp's `<!@(...)` splits on whitespace: one item per line, quoted where needed.
    process.stdout.write(`${(result[what] ?? []).join('\n')}\n`);
  }
}
