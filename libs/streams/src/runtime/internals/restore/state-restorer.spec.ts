import type { ThrowawayGroupClient } from '../../../client/kafkajs/throwaway-group-consumer';
import type { ClusterAdmin } from '../../../client/cluster-admin';
import type { ChangelogRecord } from '../../../processor/state-store-context';
import type { RestoreTarget } from './restore-target';
import { StateRestorer } from './state-restorer';
import { RecordingLogger } from '../../../../test-support/recording-logger';

const TOPIC = 'app-store-changelog';
const END = 10;

/** kafkajs' error when a group's coordinator is still loading its offsets topic. */
function coordinatorLoading(): Error {
  return Object.assign(new Error("The coordinator is loading and hence can't process requests"), {
    name: 'KafkaJSProtocolError',
    type: 'COORDINATOR_LOAD_IN_PROGRESS',
    retriable: true,
  });
}

/**
 * A fake kafkajs: each consumer is scripted to crash while it joins its group (the error
 * reported through CRASH, as kafkajs' runner does) or to deliver the changelog's records from
 * the offset it was sought to.
 */
function fakeKafka(script: ('crash' | Error | 'deliver')[]) {
  const seeks: number[] = [];
  let consumers = 0;
  const kafka = {
    consumer: () => {
      const step = script[consumers++] ?? 'deliver';
      const handlers = new Map<string, (e: { payload: unknown }) => void>();
      let eachBatch: ((payload: { batch: unknown }) => Promise<void>) | undefined;
      const consumer = {
        events: { END_BATCH_PROCESS: 'end-batch', CRASH: 'crash' },
        on: (event: string, handler: (e: { payload: unknown }) => void) =>
          handlers.set(event, handler),
        connect: async () => undefined,
        subscribe: async () => undefined,
        disconnect: async () => undefined,
        pause: () => undefined,
        run: async (config: { eachBatch: (payload: { batch: unknown }) => Promise<void> }) => {
          eachBatch = config.eachBatch;
          if (step !== 'deliver') {
            const error = step === 'crash' ? coordinatorLoading() : step;
            handlers.get('crash')?.({ payload: { error, restart: false } });
          }
        },
        seek: ({ offset }: { offset: string }) => {
          if (step !== 'deliver') throw new Error('Consumer group was not initialized');
          seeks.push(Number(offset));
          const from = Number(offset);
          const messages = Array.from({ length: END - from }, (_, i) => ({
            offset: String(from + i),
            key: Buffer.from(`k${from + i}`),
            value: Buffer.from('v'),
            timestamp: '0',
          }));
          setImmediate(() => {
            void eachBatch?.({
              batch: { topic: TOPIC, partition: 0, messages, lastOffset: () => String(END - 1) },
            });
          });
        },
      };
      return consumer;
    },
  };
  const admin = {
    fetchTopicOffsets: async () => [{ partition: 0, low: 0, high: END }],
    deleteGroups: async () => undefined,
  };
  return {
    kafka: kafka as unknown as ThrowawayGroupClient,
    admin: admin as unknown as ClusterAdmin,
    seeks,
    consumers: () => consumers,
  };
}

function target(startOffset: number | undefined, written: ChangelogRecord[]): RestoreTarget {
  return {
    storeName: 'store',
    topic: TOPIC,
    partition: 0,
    startOffset,
    restoreBatch: (records) => void written.push(...records),
    wipe: async () => undefined,
  };
}

describe('StateRestorer', () => {
  let logger: RecordingLogger;
  beforeEach(() => {
    logger = new RecordingLogger();
  });

  it('replaces a restore consumer whose group coordinator is still loading, and restores every record once', async () => {
    const fake = fakeKafka(['crash', 'crash', 'deliver']);
    const written: ChangelogRecord[] = [];
    const restorer = new StateRestorer({ ...fake, groupIdPrefix: 'app', logger });

    const [result] = await restorer.restore([target(4, written)]);

    expect(fake.consumers()).toBe(3);
    expect(fake.seeks).toEqual([4]);
    expect(written.map((r) => r.key.toString())).toEqual(['k4', 'k5', 'k6', 'k7', 'k8', 'k9']);
    expect(result).toMatchObject({ startOffset: 4, endOffset: END, restored: 6, lastOffset: 9 });
    expect(logger.warnings).toHaveLength(2);
    expect(logger.warnings[0]).toContain('The coordinator is loading');
  });

  it('fails at once with ChangelogRestoreError when the consumer crashes for another reason', async () => {
    const denied = Object.assign(new Error('Not authorized to access group'), {
      name: 'KafkaJSProtocolError',
      type: 'GROUP_AUTHORIZATION_FAILED',
      retriable: false,
    });
    const fake = fakeKafka([denied]);
    const restorer = new StateRestorer({ ...fake, groupIdPrefix: 'app', logger });

    await expect(restorer.restore([target(undefined, [])])).rejects.toMatchObject({
      name: 'ChangelogRestoreError',
      cause: denied,
    });
    expect(fake.consumers()).toBe(1);
    expect(logger.warnings).toEqual([]);
  });

  it('gives up once the cluster stays unready for stallTimeoutMs', async () => {
    const fake = fakeKafka(Array.from({ length: 50 }, () => 'crash' as const));
    const restorer = new StateRestorer({
      ...fake,
      groupIdPrefix: 'app',
      logger,
      stallTimeoutMs: 500,
    });

    await expect(restorer.restore([target(undefined, [])])).rejects.toMatchObject({
      name: 'ChangelogRestoreError',
    });
    // The first 200 ms back-off fits in 500 ms without progress; the next 400 ms would not.
    expect(fake.consumers()).toBe(2);
  });
});
