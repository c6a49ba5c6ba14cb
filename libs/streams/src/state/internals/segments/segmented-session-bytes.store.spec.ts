import { InvalidWindowError } from '../../../errors/invalid-window.error';
import { mergeSessions, sessionMergeBounds } from '../../../kstream/internals/session-merge';
import { SessionWindow } from '../../../windowing/session-window';
import { InMemoryBytesStore } from '../in-memory-bytes.store';
import { sessionView, type SessionView } from '../../../../test-support/session-view';
import { SegmentedBytesStore } from './segmented-bytes.store';
import { SessionKeySchema, type SessionBytesEntry } from './session-key-schema';

const b = (text: string): Buffer => Buffer.from(text, 'latin1');

/** The segmented engine under the session key schema, with its session view. */
async function openStore(
  retentionPeriodMs = 60_000,
  persistent = false,
): Promise<{ store: SegmentedBytesStore; sessions: SessionView }> {
  const store = new SegmentedBytesStore(
    {
      name: 'sessions',
      retentionPeriodMs,
      capabilities: { syncReads: true, persistent },
      segmentFactory: (name) => new InMemoryBytesStore(name),
    },
    { segmentTimestamp: (storeKey) => SessionKeySchema.extractEndTimestamp(storeKey) },
  );
  await store.open();
  return { store, sessions: sessionView(store) };
}

/** `key[start,end]=value` per session, for compact exact assertions. */
const show = (entries: Iterable<SessionBytesEntry>): string[] =>
  [...entries].map((e) => `${e.key.toString()}[${e.start},${e.end}]=${e.value.toString()}`);

describe('SegmentedSessionBytesStore (in-memory engine)', () => {
  it('writes [key][end][start] keys into the segment of the session end', async () => {
    const { store, sessions } = await openStore();
    expect(store.segmentIntervalMs).toBe(60_000);
    expect(sessions.put(b('bob'), 5_000, 8_000, b('2'))?.toString('hex')).toBe(
      '626f62' + '0000000000001f40' + '0000000000001388',
    );
    sessions.put(b('bob'), 50_000, 65_000, b('3')); // stream time 65 000: live ends >= 5 001
    expect(store.segmentNames()).toEqual(['sessions.0', 'sessions.60000']);
    expect(sessions.fetchSession(b('bob'), 5_000, 8_000)?.toString()).toBe('2');
    expect(sessions.fetchSession(b('bob'), 5_000, 8_001)).toBeUndefined();
    expect(await sessions.fetchSessionAsync(b('bob'), 50_000, 65_000)).toEqual(b('3'));
  });

  it('finds sessions ending at or after one time and starting at or before another', async () => {
    const { sessions } = await openStore();
    sessions.put(b('alice'), 0, 0, b('a1'));
    sessions.put(b('alice'), 5_000, 8_000, b('a2'));
    sessions.put(b('alice'), 12_000, 20_000, b('a3'));
    sessions.put(b('bob'), 1_000, 2_000, b('b1'));
    const alice = b('alice');
    expect(
      show(
        sessions.findSessions({
          key: alice,
          earliestSessionEndTime: 4_000,
          latestSessionStartTime: 9_000,
        }),
      ),
    ).toEqual(['alice[5000,8000]=a2']);
    expect(
      show(
        sessions.findSessions({
          key: alice,
          earliestSessionEndTime: 8_000,
          latestSessionStartTime: 12_000,
        }),
      ),
    ).toEqual(['alice[5000,8000]=a2', 'alice[12000,20000]=a3']);
    expect(show(sessions.findSessions({ key: alice }))).toEqual([
      'alice[0,0]=a1',
      'alice[5000,8000]=a2',
      'alice[12000,20000]=a3',
    ]);
    expect(show(sessions.findSessions({ key: alice, backward: true }))[0]).toBe(
      'alice[12000,20000]=a3',
    );
    expect(
      show(
        sessions.findSessions({ keyFrom: b('a'), keyTo: b('c'), latestSessionStartTime: 1_000 }),
      ),
    ).toEqual(['alice[0,0]=a1', 'bob[1000,2000]=b1']);
    expect(show(await sessions.findSessionsAsync({ keyFrom: b('b') }))).toEqual([
      'bob[1000,2000]=b1',
    ]);
  });

  it('removes a session', async () => {
    const { sessions } = await openStore();
    sessions.put(b('bob'), 1_000, 2_000, b('b1'));
    sessions.remove(b('bob'), 1_000, 2_000);
    expect(show(sessions.findSessions({ key: b('bob') }))).toEqual([]);
  });

  it('drops segments past retention and never returns expired sessions', async () => {
    const { store, sessions } = await openStore();
    sessions.put(b('bob'), 0, 10_000, b('old'));
    sessions.put(b('bob'), 60_000, 70_000, b('mid'));
    // Stream time 200 000: sessions live when ending at >= 140 001; segments below 2 dropped.
    sessions.put(b('bob'), 190_000, 200_000, b('new'));
    expect(store.segmentNames()).toEqual(['sessions.180000']);
    expect(show(sessions.findSessions({ key: b('bob') }))).toEqual(['bob[190000,200000]=new']);
    expect(sessions.put(b('bob'), 130_000, 140_000, b('late'))).toBeUndefined();
    expect(sessions.put(b('bob'), 130_000, 140_001, b('edge'))).toBeDefined();
    expect(show(sessions.findSessions({ key: b('bob') }))).toEqual([
      'bob[130000,140001]=edge',
      'bob[190000,200000]=new',
    ]);
  });

  it('persistent: keeps a session past retention while its segment lives, as Kafka Streams does, and reads it only whole-segment', async () => {
    const { store, sessions } = await openStore(60_000, true);
    sessions.put(b('bob'), 190_000, 200_000, b('new'));
    // Past retention (ends before 140 001) but in the live segment 120 000: written.
    expect(sessions.put(b('bob'), 130_000, 140_000, b('late'))).toBeDefined();
    // In segment 60 000, below the live ones: dropped.
    expect(sessions.put(b('bob'), 100_000, 110_000, b('gone'))).toBeUndefined();
    expect(store.expiredRecordDrops()).toBe(1);
    expect(show(sessions.findSessions({ key: b('bob') }))).toEqual(['bob[190000,200000]=new']);
    const whole = [...store.read({ retention: 'segments' })].map((e) =>
      SessionKeySchema.fromBinary(e.key),
    );
    expect(whole.map((k) => `${k.start},${k.end}`)).toEqual(['130000,140000', '190000,200000']);
    const restored = store.restoreAll([
      { key: SessionKeySchema.toBinary(b('amy'), 125_000, 125_000), value: b('kept') },
      { key: SessionKeySchema.toBinary(b('amy'), 50_000, 50_000), value: b('gone') },
    ]);
    expect(restored).toEqual({ applied: 1, skippedExpired: 1 });
  });

  it('restores a batch, skipping sessions already past retention', async () => {
    const { store, sessions } = await openStore();
    const result = store.restoreAll([
      { key: SessionKeySchema.toBinary(b('bob'), 0, 10_000), value: b('old') },
      { key: SessionKeySchema.toBinary(b('bob'), 150_000, 150_000), value: b('kept') },
      { key: SessionKeySchema.toBinary(b('bob'), 190_000, 200_000), value: b('new') },
    ]);
    expect(result).toEqual({ applied: 2, skippedExpired: 1 });
    expect(show(sessions.findSessions({ key: b('bob') }))).toEqual([
      'bob[150000,150000]=kept',
      'bob[190000,200000]=new',
    ]);
  });

  it('merges and splits sessions at the inactivity gap through the store', async () => {
    const gap = 5_000;
    const { sessions } = await openStore(3_600_000);
    const key = b('alice');
    // The session aggregation's steps: find candidates, merge, remove merged, put the result.
    const record = (timestamp: number): void => {
      const candidates = [
        ...sessions.findSessions({ key, ...sessionMergeBounds(timestamp, gap) }),
      ].map((entry) => ({
        window: new SessionWindow(entry.start, entry.end),
        count: Number(entry.value.toString()),
      }));
      const { window, merged } = mergeSessions(timestamp, gap, candidates);
      for (const session of merged) {
        sessions.remove(key, session.window.start, session.window.end);
      }
      const count = merged.reduce((sum, session) => sum + session.count, 1);
      sessions.put(key, window.start, window.end, b(String(count)));
    };
    record(0);
    record(5_000); // exactly the gap after [0, 0]: joins
    record(10_001); // gap + 1 after [0, 5000]: new session
    expect(show(sessions.findSessions({ key }))).toEqual([
      'alice[0,5000]=2',
      'alice[10001,10001]=1',
    ]);
    record(7_500); // within the gap of both: merges them
    expect(show(sessions.findSessions({ key }))).toEqual(['alice[0,10001]=4']);
  });

  it('rejects invalid sessions', async () => {
    const { sessions } = await openStore();
    expect(() => sessions.put(b('bob'), 10, 9, b('x'))).toThrow(InvalidWindowError);
  });
});
