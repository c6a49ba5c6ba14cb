import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  KafkaStreams,
  KafkaStreamsState,
  type ServedCopy,
  type StreamsConfig,
} from '@nest-streams/streams';
import { ClusterInstance } from '../cluster/cluster-harness';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { storeContents } from '../support/store-contents';
import { waitFor } from '../support/wait-for';
import {
  InterleavedTransactions,
  lastCommitted,
  shadowedKeys,
  writeInterleavedScenario,
  type TxOutcome,
  type TxRecord,
} from './interleaved-transactions';
import { statsTopology, type OrderStats } from './stats-topology';
import { streamsClient } from '../support/streams-client';

/**
 * `read_committed` on every path that reads Kafka: three transactional producers interleave
 * committed and aborted transactions (see `writeInterleavedScenario`), and the processing path
 * (input topic), the restore path (changelog, from an empty state directory and from a
 * checkpoint) and the standby path (changelog, another process) see exactly the committed
 * records: every committed one, no aborted one.
 *
 * What the paths showed before the engine filtered aborted transactions itself (each test
 * below catches one): kafkajs' own filter (`filterAbortedMessages`, replaced by the engine's in
 * kafkajs' `Broker#fetch`) takes the broker's list of aborted transactions in the order the
 * transactions ended, not by first offset as Java's consumer does, and activates at most one
 * of them per record. So
 * - records of A1 sent before C2's first record were delivered (C2 began later but aborted
 *   first): every path that reads the scenario from its start showed A1's `xa-*` records;
 * - a fetch starting past the first records of two aborted transactions delivered its first
 *   record when it belonged to the transaction listed second (the checkpoint restore below).
 * And the processing path committed the last processed record's offset + 1, never past the
 * last transaction's commit marker, so the input lag stayed 1 per partition: a task's position
 * now moves past the markers of a processed fetch (Kafka Streams commits the consumer's
 * position once a partition's records are processed, KAFKA-6607).
 */

const STORE = 'stats-store';
/** ~1 KB per record: 250 records a batch, the scenario's log spans several 1 MB fetches. */
const PAD = 'p'.repeat(1000);
const PER_SEND = 250;
/** The scenario's aborted transactions. */
const ABORTED = ['A1', 'C2', 'A2'];
const quiet = {
  info: () => undefined,
  warn: (m: string) => (process.env.DEBUG_STREAMS ? console.warn(m) : undefined),
};

/** An input event of the stats topology, tagged with the transaction that wrote it. */
const eventValue = (r: TxRecord): string =>
  JSON.stringify({ userId: r.key, amount: (r.seq % 7) + 1, txn: r.txn, pad: PAD });
/** A store value as the stats store's serde writes it, tagged with its writer. */
const storeValue = (r: TxRecord): string =>
  JSON.stringify({ count: r.seq, sum: 0, txn: r.txn, pad: PAD });
/** What a store value written by {@link storeValue} says about its writer: `txn#seq`. */
const tagOf = (value: OrderStats): string =>
  `${(value as OrderStats & { txn: string }).txn}#${value.count}`;

function countsOf(records: TxRecord[]): Map<string, OrderStats> {
  const truth = new Map<string, OrderStats>();
  for (const r of records) {
    const t = truth.get(r.key) ?? { count: 0, sum: 0 };
    truth.set(r.key, { count: t.count + 1, sum: t.sum + (r.seq % 7) + 1 });
  }
  return truth;
}

/** Each key's `txn#seq` tag, sorted by key (a readable diff). */
function tags(entries: Iterable<[string, OrderStats]>): Record<string, string> {
  return sorted(new Map([...entries].map(([key, value]) => [key, tagOf(value)])));
}

function sorted<V>(map: Map<string, V>): Record<string, V> {
  return Object.fromEntries([...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

describe('read_committed: interleaved committed and aborted transactions of three producers', () => {
  const ctx = new KafkaTestContext();
  const dirs: string[] = [];
  const running: KafkaStreams[] = [];
  const instances: ClusterInstance[] = [];
  const stateDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'read-committed-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.close()));
    await Promise.all(instances.splice(0).map((i) => i.kill('SIGTERM')));
  });
  afterAll(async () => {
    await ctx.cleanup();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  function config(applicationId: string, dir: string): StreamsConfig {
    return {
      applicationId,
      bootstrapServers: brokers(),
      stateDir: dir,
      commitIntervalMs: 200,
      kafkaClient: streamsClient(),
    };
  }

  async function startApp(
    input: string,
    cfg: StreamsConfig,
    restored?: { records: number },
  ): Promise<KafkaStreams> {
    const streams = new KafkaStreams(statsTopology(input), cfg, { logger: quiet });
    running.push(streams);
    if (restored)
      streams.setGlobalStateRestoreListener({
        onRestoreEnd: (_tp, _store, total) => (restored.records += total),
      });
    await streams.start();
    await waitFor(() => streams.state === KafkaStreamsState.RUNNING, 90_000, 'RUNNING');
    return streams;
  }

  async function writeScenario(topic: string, valueOf: (r: TxRecord) => string) {
    const writer = new InterleavedTransactions(ctx.kafka, topic, valueOf);
    try {
      return await writeInterleavedScenario(writer, PER_SEND);
    } finally {
      await writer.disconnect();
    }
  }

  /** The changelog of the stats store, created as the application creates it. */
  async function createChangelog(applicationId: string, partitions: number): Promise<string> {
    return ctx.createTopic(`${applicationId}-${STORE}-changelog`, partitions, [
      { name: 'cleanup.policy', value: 'compact' },
    ]);
  }

  const abortedTxns = (outcome: TxOutcome): Set<string> =>
    new Set(outcome.aborted.map((r) => r.txn));

  // Before the engine's filter (see the top): A1's first two `xa` batches were counted, and
  // the lags were [1, 1].
  describe.each(['at_least_once', 'exactly_once_v2'] as const)('processing path', (guarantee) => {
    it(`under ${guarantee}, counts and sums per key only the committed input records`, async () => {
      const appId = `${ctx.applicationId}-proc-${guarantee === 'at_least_once' ? 'alos' : 'eos'}`;
      const input = await ctx.createTopic(ctx.topicName('rc-in'), 2);
      const outcome = await writeScenario(input, eventValue);
      expect(abortedTxns(outcome)).toEqual(new Set(ABORTED));

      const streams = await startApp(input, {
        ...config(appId, stateDir()),
        processingGuarantee: guarantee,
      });
      const truth = countsOf(outcome.committed);
      const ends = ['end-0', 'end-1', 'end-2', 'end-3'];
      await waitFor(
        () =>
          streams.metrics().processed >= outcome.committed.length &&
          ends.every((k) => storeContents<OrderStats>(streams, STORE).has(k)),
        60_000,
        'the input processed',
      ).catch(() => undefined); // the exact comparison below says what differs
      await waitFor(
        async () => (await streams.inputLags()).every((l) => l.lag === 0),
        5_000,
        'the input committed to its end',
      ).catch(() => undefined);
      // One comparison, so that a failure shows every difference at once. Read to the end:
      // the committed offsets are past the last transaction's marker.
      expect({
        store: sorted(storeContents<OrderStats>(streams, STORE)),
        processed: streams.metrics().processed,
        lags: (await streams.inputLags()).map((l) => [l.partition, l.lag]),
      }).toEqual({
        store: sorted(truth),
        processed: outcome.committed.length,
        lags: [
          [0, 0],
          [1, 0],
        ],
      });
    }, 180_000);
  });

  // Before the engine's filter (see the top): A1's `xa-*` keys were restored, from its second
  // `xa` batch.
  it('restore path from an empty state directory: the last committed write of each key, never an aborted one', async () => {
    const appId = `${ctx.applicationId}-restore`;
    const input = await ctx.createTopic(ctx.topicName('rc-restore-in'), 2);
    const changelog = await createChangelog(appId, 2);
    const outcome = await writeScenario(changelog, storeValue);
    // The scenario's aborted writes come after committed ones for some keys: applied, they
    // would shadow the committed values.
    expect(shadowedKeys(outcome).length).toBeGreaterThan(0);

    const restored = { records: 0 };
    const streams = await startApp(input, config(appId, stateDir()), restored);
    expect({
      store: tags(storeContents<OrderStats>(streams, STORE)),
      restored: restored.records,
    }).toEqual({ store: sorted(lastCommitted(outcome)), restored: outcome.committed.length });
  }, 180_000);

  // The restore starts at the checkpoint, past the first records of two transactions that
  // were open then and aborted later; the first record it reads belongs to the transaction the
  // broker lists second among the aborted ones (it aborted last). Before the engine's filter
  // (see the top), that record (`xb-0` of B) was restored.
  it('restore path from a checkpoint inside two open transactions: only the committed tail', async () => {
    const appId = `${ctx.applicationId}-checkpoint`;
    const input = await ctx.createTopic(ctx.topicName('rc-cp-in'), 1);
    const dir = stateDir();
    const first = await startApp(input, config(appId, dir));
    const changelog = `${appId}-${STORE}-changelog`;
    const writer = new InterleavedTransactions(ctx.kafka, changelog, storeValue);
    try {
      await writer.begin('P1', 'A');
      await writer.send('A', 'xa', 3, 3);
      await writer.begin('P2', 'B');
      await writer.send('B', 'xb', 3, 3);
      // The application writes its own keys after them, and checkpoints past them on close.
      const events = Array.from({ length: 40 }, (_, i) => ({ userId: `u-${i % 8}`, amount: i }));
      const producer = ctx.kafka.producer();
      await producer.connect();
      await producer.send({
        topic: input,
        messages: events.map((e) => ({ key: e.userId, value: JSON.stringify(e) })),
      });
      await producer.disconnect();
      const truth = new Map<string, OrderStats>();
      for (const e of events) {
        const t = truth.get(e.userId) ?? { count: 0, sum: 0 };
        truth.set(e.userId, { count: t.count + 1, sum: t.sum + e.amount });
      }
      await waitFor(
        async () =>
          (await first.inputLags()).every((l) => l.lag === 0) &&
          first.metrics().processed === events.length,
        60_000,
        'the events processed',
      );
      await first.close();
      running.splice(running.indexOf(first), 1);

      await writer.send('B', 'xb', 3, 3);
      await writer.send('A', 'xa', 3, 3);
      await writer.begin('P3', 'C');
      await writer.send('C', 'c', 5, 5);
      await writer.commit('C');
      await writer.abort('A');
      await writer.abort('B');
      const outcome = writer.result();

      const restored = { records: 0 };
      const again = await startApp(input, config(appId, dir), restored);
      const contents = storeContents<OrderStats>(again, STORE);
      const users = new Map([...contents].filter(([k]) => k.startsWith('u-')));
      const others = new Map([...contents].filter(([k]) => !k.startsWith('u-')));
      // Only the tail after the checkpoint is restored: the five committed records.
      expect({ users: sorted(users), others: tags(others), restored: restored.records }).toEqual({
        users: sorted(truth),
        others: sorted(lastCommitted(outcome)),
        restored: 5,
      });
    } finally {
      await writer.disconnect();
    }
  }, 180_000);

  // Before the engine's filter (see the top): the standby copies showed A1's `xa-*` keys.
  it('standby path: a standby copy in another process converges to exactly the committed values and never shows an aborted one', async () => {
    const appId = `${ctx.applicationId}-standby`;
    const input = await ctx.createTopic(ctx.topicName('rc-sb-in'), 2);
    const changelog = await createChangelog(appId, 2);
    const env = {
      APPLICATION_ID: appId,
      INPUT_TOPIC: input,
      KAFKA_BROKERS: brokers().join(','),
    };
    for (let i = 0; i < 2; i++)
      instances.push(
        await ClusterInstance.start(
          { ...env, STATE_DIR: stateDir() },
          undefined,
          join(__dirname, 'fixtures', 'standby-copy-app.ts'),
        ),
      );
    const context = (): string => instances.map((i) => i.output).join('\n---\n');
    type State = { state: string; active: string[]; standby: string[] };
    const states = async (): Promise<State[]> =>
      Promise.all(instances.map(async (i) => (await i.get<State>('/state')).body));
    await waitFor(
      async () => {
        const all = await states();
        return (
          all.every((s) => s.state === 'RUNNING') &&
          all
            .flatMap((s) => s.standby)
            .sort()
            .join() === '0_0,0_1'
        );
      },
      90_000,
      'both RUNNING with a standby of each task',
      { context },
    );
    const all = await states();
    const standbyOf = [0, 1].map(
      (p) => instances[all.findIndex((s) => s.standby.includes(`0_${p}`))],
    );
    type Copy = { entries: [string, OrderStats][]; served: ServedCopy[] };
    const read = async (p: number): Promise<Copy> => {
      const { status, body } = await standbyOf[p].get<Copy>(`/copy/${p}`);
      if (status !== 200)
        throw new Error(`standby copy of ${p}: ${status} ${JSON.stringify(body)}`);
      return body;
    };
    // Queryable once its lag is known: answered by the standby copy, empty.
    await waitFor(
      async () => (await read(0)).served.length > 0 && (await read(1)).served.length > 0,
      30_000,
      'the standby copies queryable',
      { context },
    );

    // Every read while the transactions are written and afterwards: no aborted value, ever.
    const seenAborted = new Set<string>();
    const seenActive: ServedCopy[] = [];
    let polling = true;
    const poll = (async () => {
      while (polling) {
        for (const p of [0, 1]) {
          const copy = await read(p).catch(() => undefined);
          if (!copy) continue;
          for (const [key, value] of copy.entries)
            if (ABORTED.includes(tagOf(value).split('#')[0]))
              seenAborted.add(`${key}=${tagOf(value)}`);
          seenActive.push(...copy.served.filter((c) => c.active));
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    let outcome: TxOutcome;
    try {
      outcome = await writeScenario(changelog, storeValue);
      await waitFor(
        async () => {
          const copies = await Promise.all([read(0), read(1)]);
          const keys = new Set(copies.flatMap((c) => c.entries.map(([k]) => k)));
          return (
            ['end-0', 'end-1', 'end-2', 'end-3'].every((k) => keys.has(k)) &&
            copies.every((c) => c.served.every((s) => s.lag === 0))
          );
        },
        60_000,
        'the standby copies caught up',
        { context },
      ).catch(() => undefined); // the exact comparison below says what differs
    } finally {
      polling = false;
      await poll;
    }
    const copies = await Promise.all([read(0), read(1)]);
    expect({
      store: tags(copies.flatMap((c) => c.entries)),
      served: copies.map((c) => c.served),
      abortedEverSeen: [...seenAborted],
      activeEverServed: seenActive,
    }).toEqual({
      store: sorted(lastCommitted(outcome)),
      served: [
        [{ storeName: STORE, partition: 0, active: false, lag: 0 }],
        [{ storeName: STORE, partition: 1, active: false, lag: 0 }],
      ],
      abortedEverSeen: [],
      activeEverServed: [],
    });
  }, 240_000);
});
