import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRocksDBAvailable, rocksdbVersion, supportedCompressions } from '../addon-info';
import { RocksDBUnavailableError } from '../rocksdb-unavailable-error';
import { loadAddon } from './native';
import { unpackEntries, unpackValues } from './packed';
import { useTempDirectory } from '../../test-support/temp-directory';

const root = useTempDirectory('nest-streams-rocksdb-native-');

describe('the native addon', () => {
  it('is built here, against the system RocksDB', () => {
    expect(isRocksDBAvailable()).toBe(true);
    expect(rocksdbVersion()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(supportedCompressions()).toContain('none');
  });

  it('throws RocksDBUnavailableError naming the install failure and what to install', () => {
    const status = join(root(), 'install-status.json');
    writeFileSync(status, JSON.stringify({ reason: 'missing the RocksDB headers and library' }));
    const attempt = (): unknown => loadAddon(join(root(), 'missing.node'), status);
    expect(attempt).toThrow(RocksDBUnavailableError);
    expect(attempt).toThrow(
      /missing the RocksDB headers and library.*apt-get install librocksdb-dev/,
    );
    expect(attempt).toThrow(expect.objectContaining({ code: 'ROCKSDB_NATIVE_UNAVAILABLE' }));
  });

  it('says why the loader failed when the install left no reason', () => {
    const attempt = (): unknown =>
      loadAddon(join(root(), 'missing.node'), join(root(), 'none.json'));
    expect(attempt).toThrow(
      expect.objectContaining({ reason: expect.stringMatching(/missing\.node/) }),
    );
  });

  it('can be turned off with NEST_STREAMS_ROCKSDB_DISABLE=1', () => {
    process.env.NEST_STREAMS_ROCKSDB_DISABLE = '1';
    try {
      expect(() => loadAddon(join(root(), 'any.node'))).toThrow(
        expect.objectContaining({ reason: 'disabled by NEST_STREAMS_ROCKSDB_DISABLE=1' }),
      );
    } finally {
      delete process.env.NEST_STREAMS_ROCKSDB_DISABLE;
    }
  });
});

describe('packed results', () => {
  it('decodes multi-get values with misses', () => {
    const packed = Buffer.from([
      3, 0, 0, 0, 2, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0x61, 0x62,
    ]);
    expect(unpackValues(packed).map((v) => v?.toString())).toEqual(['ab', undefined, '']);
  });

  it('decodes iterator chunks', () => {
    const packed = Buffer.concat([
      Buffer.from([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0]),
      Buffer.from('kvv'),
    ]);
    const { entries, done } = unpackEntries(packed);
    expect(done).toBe(true);
    expect(entries.map((e) => `${e.key}=${e.value}`)).toEqual(['k=vv']);
  });
});
