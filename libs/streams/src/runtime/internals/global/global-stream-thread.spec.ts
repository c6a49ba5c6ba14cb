import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  AssignedPartitionReader,
  FetchedPartition,
  FetchedRecord,
  PartitionFetchPosition,
} from '../../../client/assigned-partition-reader';
import type { ClusterAdmin } from '../../../client/cluster-admin';
import { PartitionOffsetOutOfRangeError } from '../../../errors/internals/partition-offset-out-of-range.error';
import { UnknownTopicError } from '../../../errors/internals/unknown-topic.error';
import { MissingSourceTopicError } from '../../../errors/missing-source-topic.error';
import { resolveStreamsConfig } from '../../streams-config';
import type { StateRestoreListener } from '../../state-restore-listener';
import type { GlobalStoreUpdater } from './global-store-updater';
import { GlobalStreamThread } from './global-stream-thread';

const logger = { debug: jest.fn(), info: jest.fn(), warn: jest.fn(), error: jest.fn() };

/** Logs by `topic-partition`: their record keys, offset = index from `start`. */
class FakeTopics {
  readonly logs = new Map<string, { start: number; keys: string[]; lso?: number }>();
  readonly fetched: PartitionFetchPosition[][] = [];
  outOfRange: PartitionFetchPosition | undefined;

  constructor(topic: string, partitions: string[][]) {
    partitions.forEach((keys, p) => this.logs.set(`${topic}-${p}`, { start: 0, keys }));
  }

  reader(): AssignedPartitionReader {
    return {
      fetch: async (positions) => {
        this.fetched.push([...positions]);
        const bad = positions.find(
          (p) => p.offset < this.logs.get(`${p.topic}-${p.partition}`)!.start,
        );
        if (bad) throw new PartitionOffsetOutOfRangeError(bad.topic, bad.partition, bad.offset);
        await new Promise((resolve) => setTimeout(resolve, 1));
        return positions.map((p) => this.partition(p));
      },
      close: async () => undefined,
    };
  }

  admin(): ClusterAdmin {
    return {
      fetchTopicOffsets: async (topic: string) => {
        const parts = [...this.logs].filter(([k]) => k.startsWith(`${topic}-`));
        if (parts.length === 0) throw new UnknownTopicError(topic);
        return parts.map(([, log], partition) => ({
          partition,
          low: log.start,
          high: log.start + log.keys.length,
        }));
      },
    } as unknown as ClusterAdmin;
  }

  private partition(p: PartitionFetchPosition): FetchedPartition {
    const log = this.logs.get(`${p.topic}-${p.partition}`)!;
    const end = log.lso ?? log.start + log.keys.length;
    const records: FetchedRecord[] = [];
    for (let offset = p.offset; offset < end && records.length < 2; offset++) {
      const key = Buffer.from(log.keys[offset - log.start]);
      records.push({ offset, key, value: key, timestamp: 1 });
    }
    return {
      topic: p.topic,
      partition: p.partition,
      fetchOffset: p.offset,
      records,
      nextOffset: p.offset + records.length,
      highWatermark: log.start + log.keys.length,
      lastStableOffset: end,
    };
  }
}

/** An updater double recording what it was handed, per partition. */
function fakeUpdater(topic: string, persistent = true, fail = false) {
  const applied: string[] = [];
  const updater = {
    topics: () => [topic],
    storeOf: () => `${topic}-store`,
    open: jest.fn(async () => undefined),
    persistent: () => persistent,
    update: jest.fn(async (_t: string, partition: number, records: readonly FetchedRecord[]) => {
      if (fail && applied.length > 0) throw new Error('store broke');
      for (const r of records) applied.push(`${partition}:${r.key!.toString()}`);
      return records.length;
    }),
    flush: jest.fn(async () => undefined),
    close: jest.fn(async () => undefined),
  };
  return { applied, updater: updater as unknown as GlobalStoreUpdater, mock: updater };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(condition()).toBe(true);
}

describe('GlobalStreamThread', () => {
  let dir: string;
  const started: GlobalStreamThread[] = [];
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'global-thread-'))));
  afterEach(async () => {
    // A failed expectation leaves its thread following: stop every one.
    await Promise.all(started.splice(0).map((t) => t.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  const config = (commitIntervalMs = 60_000) =>
    resolveStreamsConfig({
      applicationId: 'global-thread',
      bootstrapServers: ['127.0.0.1:1'],
      stateDir: dir,
      commitIntervalMs,
    });

  function thread(
    topics: FakeTopics,
    updater: GlobalStoreUpdater,
    onError = jest.fn(),
    restoreListener?: StateRestoreListener,
  ) {
    const made = new GlobalStreamThread({
      config: config(),
      admin: topics.admin(),
      reader: topics.reader(),
      updater,
      globalDir: dir,
      logger,
      onError,
      retryDelayMs: 1,
      restoreListener: () => restoreListener,
    });
    started.push(made);
    return made;
  }

  it('restores every partition to its end before start() resolves, then checkpoints it', async () => {
    const topics = new FakeTopics('t', [['a', 'b', 'c'], [], ['d']]);
    const { applied, updater } = fakeUpdater('t');
    const t = thread(topics, updater);
    await t.start();
    expect(t.restored).toBe(true);
    expect(applied).toEqual(['0:a', '0:b', '2:d', '0:c']);
    expect(readFileSync(join(dir, '.checkpoint'), 'utf8')).toBe('0\n2\nt 0 2\nt 2 0\n');
    await t.stop();
  });

  it('tells the restore listener of each partition: start and end offsets, batches, total', async () => {
    const topics = new FakeTopics('t', [['a', 'b', 'c'], [], ['d']]);
    const { updater } = fakeUpdater('t');
    const calls: string[] = [];
    const t = thread(topics, updater, jest.fn(), {
      onRestoreStart: (tp, store, start, end) =>
        calls.push(`start ${tp.topic}-${tp.partition} ${store} ${start}..${end}`),
      onBatchRestored: (tp, store, offset, count) =>
        calls.push(`batch ${tp.topic}-${tp.partition} ${store} ${offset} ${count}`),
      onRestoreEnd: (tp, store, total) =>
        calls.push(`end ${tp.topic}-${tp.partition} ${store} ${total}`),
    });
    await t.start();
    expect(calls).toEqual([
      'start t-0 t-store 0..3',
      'start t-1 t-store 0..0',
      'start t-2 t-store 0..1',
      'batch t-0 t-store 2 2',
      'batch t-2 t-store 1 1',
      'end t-1 t-store 0',
      'end t-2 t-store 1',
      'batch t-0 t-store 3 1',
      'end t-0 t-store 3',
    ]);
    // Once restored, records that follow are no restore.
    topics.logs.get('t-1')!.keys.push('e');
    await until(() => t.position()['t']?.['1'] === 0);
    expect(calls).toHaveLength(9);
    await t.stop();
  });

  it('fails the start with ChangelogRestoreError when the restore listener throws', async () => {
    const topics = new FakeTopics('t', [['a']]);
    const { updater } = fakeUpdater('t');
    const t = thread(topics, updater, jest.fn(), {
      onRestoreEnd: () => {
        throw new Error('listener broke');
      },
    });
    await expect(t.start()).rejects.toThrow(
      'restoring from t-0 failed: the restore listener threw',
    );
  });

  it('restores to the last stable offset, not past an open transaction', async () => {
    const topics = new FakeTopics('t', [['a', 'b', 'c']]);
    topics.logs.get('t-0')!.lso = 1;
    const { applied, updater } = fakeUpdater('t');
    const t = thread(topics, updater);
    await t.start();
    expect(applied).toEqual(['0:a']);
    topics.logs.get('t-0')!.lso = undefined; // the transaction commits: the loop reads on
    await until(() => applied.length === 3);
    await t.stop();
  });

  it('resumes a persistent store from its checkpoint, and restores an in-memory one whole', async () => {
    writeFileSync(join(dir, '.checkpoint'), '0\n2\nt 0 1\nt 1 0\n');
    const topics = new FakeTopics('t', [
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
    const persistent = fakeUpdater('t');
    const first = thread(topics, persistent.updater);
    await first.start();
    expect(persistent.applied).toEqual(['0:c', '1:e']);
    await first.stop();

    const inMemory = fakeUpdater('t', false);
    const second = thread(topics, inMemory.updater);
    await second.start();
    expect(inMemory.applied.sort()).toEqual(['0:a', '0:b', '0:c', '1:d', '1:e']);
    await second.stop();
  });

  it('follows records that arrive while running and checkpoints them at stop', async () => {
    const topics = new FakeTopics('t', [['a']]);
    const { applied, updater, mock } = fakeUpdater('t');
    const t = thread(topics, updater);
    await t.start();
    topics.logs.get('t-0')!.keys.push('b', 'c');
    await until(() => applied.length === 3);
    await t.stop();
    expect(applied).toEqual(['0:a', '0:b', '0:c']);
    expect(readFileSync(join(dir, '.checkpoint'), 'utf8')).toBe('0\n1\nt 0 2\n');
    expect(mock.close).toHaveBeenCalledTimes(1);
  });

  it('moves a position outside the log to the log start', async () => {
    writeFileSync(join(dir, '.checkpoint'), '0\n1\nt 0 0\n');
    const topics = new FakeTopics('t', [['a', 'b', 'c']]);
    const { applied, updater } = fakeUpdater('t');
    const t = thread(topics, updater);
    const reader = (t as unknown as { options: { reader: AssignedPartitionReader } }).options
      .reader;
    const fetch = reader.fetch.bind(reader);
    // The log is truncated to offset 2 after the offsets were read: the first fetch is out of range.
    let truncated = false;
    reader.fetch = async (positions) => {
      if (!truncated) {
        truncated = true;
        const log = topics.logs.get('t-0')!;
        log.start = 2;
        log.keys = ['c'];
      }
      return fetch(positions);
    };
    await t.start();
    expect(applied).toEqual(['0:c']);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/log start, 2/));
    await t.stop();
  });

  it('stops a restore still running: the stores close after its last write, unrestored', async () => {
    const topics = new FakeTopics('t', [Array.from({ length: 200 }, (_, i) => `k${i}`)]);
    const { applied, updater, mock } = fakeUpdater('t');
    const t = thread(topics, updater);
    const starting = t.start();
    await until(() => applied.length >= 4);
    await t.stop();
    await starting;
    const written = applied.length;
    expect(written).toBeLessThan(200);
    expect(t.restored).toBe(false);
    expect(mock.close).toHaveBeenCalledTimes(1);
    expect(mock.update.mock.invocationCallOrder.at(-1)).toBeLessThan(
      mock.close.mock.invocationCallOrder[0],
    );
    expect(applied).toHaveLength(written);
  });

  it('fails start() with MissingSourceTopicError for a global topic that does not exist', async () => {
    const topics = new FakeTopics('other', [['a']]);
    const { updater } = fakeUpdater('t');
    await expect(thread(topics, updater).start()).rejects.toThrow(MissingSourceTopicError);
  });

  it('reports a failure while running to onError and stops following', async () => {
    const topics = new FakeTopics('t', [['a']]);
    const { updater } = fakeUpdater('t', true, true);
    const onError = jest.fn();
    const t = thread(topics, updater, onError);
    await t.start();
    topics.logs.get('t-0')!.keys.push('b');
    await until(() => onError.mock.calls.length === 1);
    expect(onError).toHaveBeenCalledWith(new Error('store broke'));
    await t.stop();
  });
});
