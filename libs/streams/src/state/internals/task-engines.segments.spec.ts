import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { useTempDirectory } from '../../../../rocksdb/test-support/temp-directory';
import { windowView } from '../../../test-support/window-view';
import type { RocksDBConfigSetter } from '../rocksdb-config-setter';
import { Stores } from '../stores';
import type { SegmentedBytesStore } from './segments/segmented-bytes.store';
import { TaskEngines } from './task-engines';

const HOUR = 3_600_000;
const b = (text: string): Buffer => Buffer.from(text);
const root = useTempDirectory('task-engines-segments-');

/** A RocksDB window store as a task opens it: its engines managed by `engines`. */
function windowStore(
  engines: TaskEngines,
  directory: string,
  configSetter?: RocksDBConfigSetter,
): SegmentedBytesStore {
  const supplier = Stores.persistentWindowStore('counts', HOUR, 60_000, false, { configSetter });
  return supplier.get({ directory, configs: engines.attachTo({}) }) as SegmentedBytesStore;
}

/**
 * What a crash leaves of `directory` right now: its files as they are (the WAL is off, so
 * what is only in memtables is lost), opened as a new store.
 */
async function crashImage(directory: string, name: string): Promise<SegmentedBytesStore> {
  const image = join(root(), name);
  cpSync(directory, image, { recursive: true });
  const store = windowStore(new TaskEngines(), image);
  await store.open();
  return store;
}

describe('TaskEngines and window segments still opening', () => {
  it('flush waits for a segment opening in the background and makes its writes durable', async () => {
    const engines = new TaskEngines();
    const directory = join(root(), 'alo');
    const store = windowStore(engines, directory);
    await store.open();
    windowView(store).put(b('alice'), b('1'), 0);
    windowView(store).put(b('bob'), b('2'), 1_800_000);

    await engines.flush(); // what a checkpoint does before it writes the offsets

    const image = await crashImage(directory, 'alo-image');
    expect(windowView(image).fetch(b('alice'), 0)?.toString()).toBe('1');
    expect(windowView(image).fetch(b('bob'), 1_800_000)?.toString()).toBe('2');
    await image.close();
    await store.close();
  });

  it("commit writes a transaction's writes that a segment buffered while it opened", async () => {
    const engines = new TaskEngines();
    await engines.startTransactions();
    const directory = join(root(), 'eos');
    const store = windowStore(engines, directory);
    await store.open();
    windowView(store).put(b('alice'), b('1'), 0);

    await engines.commit(); // the Kafka transaction carrying its changelog record committed
    await engines.flush();
    windowView(store).put(b('alice'), b('uncommitted'), 60_000);
    await engines.flush();

    const image = await crashImage(directory, 'eos-image');
    expect(windowView(image).fetch(b('alice'), 0)?.toString()).toBe('1');
    expect(windowView(image).fetch(b('alice'), 60_000)).toBeUndefined();
    await image.close();
    await store.close();
  });

  it('fails every later commit and flush when a segment could not open', async () => {
    const engines = new TaskEngines();
    const refused: RocksDBConfigSetter = {
      setConfig: (name) => {
        if (name === 'counts.1800000') throw new Error('segment refused by the config setter');
      },
    };
    const store = windowStore(engines, join(root(), 'failing'), refused);
    await store.open();
    windowView(store).put(b('alice'), b('1'), 0);
    windowView(store).put(b('alice'), b('2'), 1_800_000);

    await expect(engines.flush()).rejects.toThrow('segment refused by the config setter');
    await expect(engines.commit()).rejects.toThrow('segment refused by the config setter');
    await expect(engines.flush()).rejects.toThrow('segment refused by the config setter');
    await store.close().catch(() => undefined);
  });
});
