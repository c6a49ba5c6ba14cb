import { InMemoryBytesStore } from '../in-memory-bytes.store';
import { KeyValueSegments, defaultSegmentIntervalMs } from './key-value-segments';

const HOUR = 3_600_000;
const INTERVAL = 1_800_000;

/** An in-memory engine whose `open()` waits until `release()`, or fails with `fail()`. */
class GatedStore extends InMemoryBytesStore {
  private gate: { resolve: () => void; reject: (error: Error) => void } | undefined;
  private readonly gated = new Promise<void>((resolve, reject) => {
    this.gate = { resolve, reject };
  });

  release(): void {
    this.gate?.resolve();
  }

  fail(error: Error): void {
    this.gate?.reject(error);
  }

  override async open(): Promise<void> {
    await this.gated;
    await super.open();
  }
}

function manager(options: { list?: string[]; gated?: boolean } = {}): {
  segments: KeyValueSegments;
  created: Map<string, InMemoryBytesStore>;
} {
  const created = new Map<string, InMemoryBytesStore>();
  const segments = new KeyValueSegments({
    storeName: 'windowed-count-store',
    retentionPeriodMs: HOUR,
    segmentIntervalMs: INTERVAL,
    segmentFactory: (name) => {
      const store = options.gated ? new GatedStore(name) : new InMemoryBytesStore(name);
      created.set(name, store);
      return store;
    },
    listSegmentNames: options.list ? async () => options.list ?? [] : undefined,
  });
  return { segments, created };
}

const key = (text: string): Buffer => Buffer.from(text);

/** Segment directories on a pretend disk, and what was done to them. */
class Disk {
  readonly dirs = new Set<string>();
  readonly openEngines = new Map<string, number>();
  readonly deletedUnderOpenEngine: string[] = [];
  readonly deleted: string[] = [];
}

/**
 * An engine named after the STORE, as the RocksDB factory names its segment engines, kept in
 * a segment directory of a {@link Disk}: deleting the directory while another engine has it
 * open is what made a real RocksDB segment fail to close.
 */
class DirectoryEngine extends InMemoryBytesStore {
  constructor(
    private readonly dir: string,
    private readonly disk: Disk,
  ) {
    super('windowed-count-store');
  }

  override async open(): Promise<void> {
    await super.open();
    this.disk.dirs.add(this.dir);
    this.disk.openEngines.set(this.dir, (this.disk.openEngines.get(this.dir) ?? 0) + 1);
  }

  /** Closing takes a while (a real engine syncs its files) and fails if the files are gone. */
  override async close(): Promise<void> {
    if (!this.isOpen()) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.disk.openEngines.set(this.dir, (this.disk.openEngines.get(this.dir) ?? 1) - 1);
    await super.close();
    if (!this.disk.dirs.has(this.dir)) throw new Error(`${this.dir} was deleted while open`);
  }

  override async destroy(): Promise<void> {
    await this.close();
    await Promise.resolve();
    if (!this.disk.dirs.has(this.dir)) return;
    if ((this.disk.openEngines.get(this.dir) ?? 0) > 0)
      this.disk.deletedUnderOpenEngine.push(this.dir);
    this.disk.dirs.delete(this.dir);
    this.disk.deleted.push(this.dir);
  }
}

describe('KeyValueSegments', () => {
  it("uses Kafka Streams' default interval max(retention / 2, 60 s)", () => {
    expect(defaultSegmentIntervalMs(HOUR)).toBe(1_800_000);
    expect(defaultSegmentIntervalMs(60_000)).toBe(60_000);
    expect(defaultSegmentIntervalMs(0)).toBe(60_000);
    expect(defaultSegmentIntervalMs(86_400_001)).toBe(43_200_000);
  });

  it('names segments <store>.<segmentId * interval> and parses the names back', () => {
    const { segments } = manager();
    expect(segments.segmentId(0)).toBe(0);
    expect(segments.segmentId(1_799_999)).toBe(0);
    expect(segments.segmentId(1_800_000)).toBe(1);
    expect(segments.segmentName(3)).toBe('windowed-count-store.5400000');
    expect(segments.segmentIdFromName('windowed-count-store.5400000')).toBe(3);
    expect(segments.segmentIdFromName('windowed-count-store.x')).toBeUndefined();
    expect(segments.segmentIdFromName('stats-store.0')).toBeUndefined();
  });

  it('creates segments lazily, once, and only while live', () => {
    const { segments, created } = manager();
    expect(created.size).toBe(0);
    const first = segments.getOrCreateSegmentIfLive(0, 0);
    expect(segments.getOrCreateSegmentIfLive(0, 100)).toBe(first);
    expect([...created.keys()]).toEqual(['windowed-count-store.0']);
    // Stream time 5.4 M: the minimum live segment is floor((5.4 M - 3.6 M) / 1.8 M) = 1.
    expect(segments.getOrCreateSegmentIfLive(0, 5_400_000)).toBeUndefined();
    expect(segments.getOrCreateSegmentIfLive(1, 5_400_000)?.name).toBe(
      'windowed-count-store.1800000',
    );
  });

  it('drops whole expired segments: closed, destroyed and gone from searches', async () => {
    const { segments, created } = manager();
    for (const id of [0, 1, 2, 3]) {
      segments.getOrCreateSegmentIfLive(id, 0)?.put(key(`k${id}`), key('v'));
    }
    await segments.flush();
    expect(segments.count).toBe(4);
    expect(segments.search(0, 10_000_000, false).map((s) => s.id)).toEqual([0, 1, 2, 3]);
    expect(segments.search(1_800_000, 3_600_000, true).map((s) => s.id)).toEqual([2, 1]);

    segments.cleanupExpiredSegments(5_400_000 + INTERVAL); // minimum live segment: 2
    expect(segments.count).toBe(2);
    expect(segments.all(false).map((s) => s.name)).toEqual([
      'windowed-count-store.3600000',
      'windowed-count-store.5400000',
    ]);
    await segments.flush();
    expect(created.get('windowed-count-store.0')?.isOpen()).toBe(false);
    expect(created.get('windowed-count-store.1800000')?.isOpen()).toBe(false);
    expect(created.get('windowed-count-store.3600000')?.isOpen()).toBe(true);
  });

  it('opens the segments a previous run left and drops expired ones', async () => {
    const { segments, created } = manager({
      list: ['windowed-count-store.0', 'windowed-count-store.3600000', 'other-store.0'],
    });
    await segments.openExisting(-1);
    expect(segments.all(false).map((s) => s.id)).toEqual([0, 2]);
    expect(created.get('windowed-count-store.3600000')?.isOpen()).toBe(true);
    expect(created.has('other-store.0')).toBe(false);

    const { segments: later } = manager({
      list: ['windowed-count-store.0', 'windowed-count-store.3600000'],
    });
    await later.openExisting(5_400_000);
    expect(later.all(false).map((s) => s.id)).toEqual([2]);
  });

  it('accepts writes while a new segment opens and applies them once open', async () => {
    const { segments, created } = manager({ gated: true });
    const segment = segments.getOrCreateSegmentIfLive(0, 0);
    segment?.put(key('b'), key('2'));
    segment?.putAll([
      { key: key('a'), value: key('1') },
      { key: key('c'), value: key('3') },
      { key: key('c'), value: null },
    ]);
    expect(segment?.get(key('a'))?.toString()).toBe('1');
    expect(segment?.get(key('c'))).toBeUndefined();
    expect(
      [...(segment?.range(undefined, undefined, true) ?? [])].map((e) => e.key.toString()),
    ).toEqual(['b', 'a']);

    const store = created.get('windowed-count-store.0') as GatedStore;
    store.release();
    await segment?.ready();
    expect(store.get(key('a'))?.toString()).toBe('1');
    expect(store.get(key('b'))?.toString()).toBe('2');
    expect(store.approximateNumEntries()).toBe(2);
    expect(segment?.get(key('b'))?.toString()).toBe('2');
  });

  it('rethrows a failed open from every later call on the segment, and from flush', async () => {
    const { segments, created } = manager({ gated: true });
    const segment = segments.getOrCreateSegmentIfLive(0, 0);
    segment?.put(key('a'), key('1'));
    const failure = new Error('disk full');
    (created.get('windowed-count-store.0') as GatedStore).fail(failure);
    await expect(segment?.ready()).rejects.toBe(failure);
    expect(() => segment?.get(key('a'))).toThrow(failure);
    await expect(segments.flush()).rejects.toBe(failure);
  });

  it('destroys the segments of a previous run once each, never under an open engine', async () => {
    // A SIGKILLed instance under exactly-once leaves segments without a checkpoint: the next
    // owner opens them, then wipes the store. Engines are named after the store, so segment
    // names must not come from them, or the wipe deletes open segments' directories twice.
    const disk = new Disk();
    const previousRun = ['windowed-count-store.0', 'windowed-count-store.1800000'];
    for (const dir of previousRun) disk.dirs.add(dir);
    const segments = new KeyValueSegments({
      storeName: 'windowed-count-store',
      retentionPeriodMs: HOUR,
      segmentIntervalMs: INTERVAL,
      segmentFactory: (name) => new DirectoryEngine(name, disk),
      listSegmentNames: async () => [...disk.dirs],
    });
    await segments.openExisting(-1);
    expect(segments.all(false).map((s) => s.name)).toEqual(previousRun);
    segments.getOrCreateSegmentIfLive(2, 0)?.put(key('k'), key('v'));
    await segments.flush();

    await segments.destroy();
    expect(disk.deletedUnderOpenEngine).toEqual([]);
    expect(disk.deleted.sort()).toEqual([...previousRun, 'windowed-count-store.3600000'].sort());
    expect(disk.dirs.size).toBe(0);
  });

  it('destroys every segment, including unopened ones of a previous run', async () => {
    const { segments, created } = manager({ list: ['windowed-count-store.0'] });
    segments.getOrCreateSegmentIfLive(2, 0);
    await segments.destroy();
    expect(segments.count).toBe(0);
    expect([...created.keys()].sort()).toEqual([
      'windowed-count-store.0',
      'windowed-count-store.3600000',
    ]);
  });
});
