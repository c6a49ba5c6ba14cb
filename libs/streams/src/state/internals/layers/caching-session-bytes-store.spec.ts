import { CachingBytesStore } from './caching-bytes-store';
import { ChangeLoggingBytesStore } from './change-logging-bytes-store';
import { InMemoryBytesStore } from '../in-memory-bytes.store';
import { SegmentedBytesStore } from '../segments/segmented-bytes.store';
import {
  SessionKeySchema,
  type SessionBytesEntry,
  type SessionQuery,
} from '../segments/session-key-schema';
import { sessionView } from '../../../../test-support/session-view';
import { testStoreContext, prng } from '../../../../test-support/store-test-support';

const b = (text: string): Buffer => Buffer.from(text, 'latin1');

/** The session engine: in-memory segments under the session key schema. */
function engine(retentionPeriodMs = 60_000): SegmentedBytesStore {
  return new SegmentedBytesStore(
    {
      name: 'sessions',
      retentionPeriodMs,
      capabilities: { syncReads: true, persistent: false },
      segmentFactory: (name) => new InMemoryBytesStore(name),
    },
    { segmentTimestamp: (storeKey) => SessionKeySchema.extractEndTimestamp(storeKey) },
  );
}

async function cachedStack() {
  const context = testStoreContext();
  const store = new CachingBytesStore(new ChangeLoggingBytesStore(engine()));
  const flushed: string[] = [];
  store.setFlushListener((sessionKey, value, old) => {
    const { key, start, end } = SessionKeySchema.fromBinary(sessionKey);
    flushed.push(
      `${key.toString()}[${start},${end}]=${value?.toString() ?? 'null'} (was ${
        old === undefined ? '?' : (old?.toString() ?? 'null')
      })`,
    );
  }, true);
  await store.init(context);
  return { store, sessions: sessionView(store), context, flushed };
}

const show = (entries: Iterable<SessionBytesEntry>): string[] =>
  [...entries].map((e) => `${e.key.toString()}[${e.start},${e.end}]=${e.value.toString()}`);

describe('CachingBytesStore over a session store', () => {
  it('logs and emits a growing, merged session once per flush, removals included', async () => {
    const { store, sessions, context, flushed } = await cachedStack();
    // A session grows record by record: each step removes the old session and writes the new.
    sessions.put(b('bob'), 1_000, 1_000, b('1'));
    sessions.remove(b('bob'), 1_000, 1_000);
    sessions.put(b('bob'), 1_000, 2_000, b('2'));
    sessions.remove(b('bob'), 1_000, 2_000);
    sessions.put(b('bob'), 1_000, 3_000, b('3'));
    expect(show(sessions.findSessions({ key: b('bob') }))).toEqual(['bob[1000,3000]=3']);
    expect(sessions.fetchSession(b('bob'), 1_000, 2_000)).toBeUndefined();
    expect(context.recordCollector.records).toHaveLength(0);
    await store.flush();
    // Three dirty sessions, two of them removals of sessions the store never held: those are
    // neither logged nor emitted (Kafka Streams skips them too).
    expect(
      context.recordCollector.records.map((r) => {
        const { start, end } = SessionKeySchema.fromBinary(r.key as Buffer);
        return `[${start},${end}]=${r.value === null ? 'null' : String(r.value)}`;
      }),
    ).toEqual(['[1000,3000]=3']);
    expect(flushed).toEqual(['bob[1000,3000]=3 (was null)']);
    // Growing a stored session removes it for real: logged and emitted with its old value.
    sessions.remove(b('bob'), 1_000, 3_000);
    sessions.put(b('bob'), 1_000, 4_000, b('4'));
    await store.flush();
    expect(flushed.slice(1)).toEqual([
      'bob[1000,3000]=null (was 3)',
      'bob[1000,4000]=4 (was null)',
    ]);
    expect(context.recordCollector.records).toHaveLength(3);
    expect(show(sessionView(store.inner).findSessions({}))).toEqual(['bob[1000,4000]=4']);
  });

  it('finds sessions exactly like the uncached engine through random writes, removals and flushes', async () => {
    const keys = ['a', 'ab', 'b', 'ba', 'c'].map(b);
    for (const seed of [7, 8]) {
      const random = prng(seed);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
      const time = (step: number): number => Math.floor(random() * 30) * 1_000 + step * 400;
      const { store, sessions } = await cachedStack();
      const plain = engine();
      await plain.open();
      const plainView = sessionView(plain);
      for (let step = 0; step < 250; step++) {
        const key = pick(keys);
        const start = time(step);
        const end = start + Math.floor(random() * 5) * 1_000;
        const value = random() < 0.25 ? null : b(`v${step}`);
        expect(sessions.put(key, start, end, value) !== undefined).toBe(
          plainView.put(key, start, end, value) !== undefined,
        );
        if (random() < 0.1) await store.flush();
        const queries: SessionQuery[] = [
          { key: pick(keys) },
          { key: pick(keys), earliestSessionEndTime: time(step), backward: true },
          {},
          { backward: true },
          { keyFrom: pick(keys), keyTo: pick(keys), latestSessionStartTime: time(step) },
        ];
        for (const query of queries) {
          const label = `seed ${seed} step ${step} ${JSON.stringify(query)}`;
          expect([label, ...show(sessions.findSessions(query))]).toEqual([
            label,
            ...show(plainView.findSessions(query)),
          ]);
        }
        expect(await sessions.fetchSessionAsync(key, start, end)).toEqual(
          await plainView.fetchSessionAsync(key, start, end),
        );
      }
      await store.flush();
      expect(show(sessionView(store.inner).findSessions({}))).toEqual(
        show(plainView.findSessions({})),
      );
    }
  });
});
