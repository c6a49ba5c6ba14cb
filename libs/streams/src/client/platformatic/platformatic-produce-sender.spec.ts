import {
  kOptions,
  NetworkError,
  protocolErrors,
  ResponseError,
  type ClusterMetadata,
  type Producer,
} from '@platformatic/kafka';
import { ClusterFaultTimeoutError } from '../../errors/cluster-fault-timeout.error';
import type { PartitionRecords } from '../record-producer';
import { platformaticTransientFault } from './platformatic-transient-faults';
import {
  incrementSequence,
  PlatformaticProduceSender,
  ProducerSequences,
  type PlatformaticTransaction,
} from './platformatic-produce-sender';
import { virtualClockPerTest } from '../../../test-support/virtual-clock';

/** What a Produce v3 request carried, read back from its bytes. */
interface SentBatch {
  topic: string;
  partition: number;
  producerId: bigint;
  producerEpoch: number;
  baseSequence: number;
  transactional: boolean;
  records: number;
}
interface SentRequest {
  broker: number;
  transactionalId: string | null;
  batches: SentBatch[];
}

function readProduceV3(body: Buffer, broker: number): SentRequest {
  let at = 0;
  const int16 = () => ((at += 2), body.readInt16BE(at - 2));
  const int32 = () => ((at += 4), body.readInt32BE(at - 4));
  const string = () => {
    const length = int16();
    if (length < 0) return null;
    at += length;
    return body.toString('utf8', at - length, at);
  };
  const transactionalId = string();
  int16(); // acks
  int32(); // timeout
  const batches: SentBatch[] = [];
  for (let t = int32(); t > 0; t--) {
    const topic = string()!;
    for (let p = int32(); p > 0; p--) {
      const partition = int32();
      const size = int32();
      const batch = body.subarray(at, at + size);
      at += size;
      batches.push({
        topic,
        partition,
        producerId: batch.readBigInt64BE(43),
        producerEpoch: batch.readInt16BE(51),
        baseSequence: batch.readInt32BE(53),
        transactional: (batch.readInt16BE(21) & 0x10) !== 0,
        records: batch.readInt32BE(57),
      });
    }
  }
  return { broker, transactionalId, batches };
}

/** A platformatic producer's parts the sender uses; partition p's leader is broker p % 2. */
class FakeProducer {
  producerId: bigint | undefined = 100n;
  producerEpoch: number | undefined = 0;
  readonly sent: SentRequest[] = [];
  /** Errors of the next requests (platformatic's `ResponseError` by Kafka error name). */
  readonly failures: string[] = [];
  inits = 0;
  metadataCleared = 0;
  readonly [kOptions] = { timeout: 1000 };

  readonly metadataValue = {
    brokers: new Map([
      [0, { host: 'b0', port: 1 }],
      [1, { host: 'b1', port: 1 }],
    ]),
    topics: new Map([
      ['t', { partitionsCount: 4, partitions: [0, 1, 2, 3].map((p) => ({ leader: p % 2 })) }],
    ]),
  } as unknown as ClusterMetadata;

  /** Connections refused by broker 1 before its partitions move to broker 0 (it died). */
  refusalsBeforeMove = 0;
  readonly closed = false;

  readonly connections = {
    get: async (broker: { host: string }) => {
      const id = Number(broker.host.slice(1));
      if (id === 1 && this.refusalsBeforeMove > 0) {
        if (--this.refusalsBeforeMove === 0) this.moveLeadersTo(0);
        throw new NetworkError('Connection to b1:1 failed.');
      }
      return this.connection(id);
    },
  };

  listApis = async () => [{ apiKey: 0, minVersion: 3, maxVersion: 3 }];
  metadata = async () => this.metadataValue;
  clearMetadata = () => void this.metadataCleared++;
  initIdempotentProducer = async () => {
    this.inits++;
    this.producerId = (this.producerId ?? 0n) + 1n;
    this.producerEpoch = 0;
  };

  /** The controller elects `broker` the leader of every partition. */
  private moveLeadersTo(broker: number): void {
    const topic = this.metadataValue.topics.get('t') as unknown as {
      partitions: { leader: number }[];
    };
    for (const partition of topic.partitions) partition.leader = broker;
  }

  private connection(broker: number) {
    return {
      send: (
        _key: number,
        _version: number,
        createPayload: () => { buffer: Buffer },
        _parse: unknown,
        _requestTags: boolean,
        _responseTags: boolean,
        callback: (error: Error | null, response?: unknown) => void,
      ) => {
        const request = readProduceV3(createPayload().buffer, broker);
        this.sent.push(request);
        const failure = this.failures.shift();
        if (failure !== undefined) {
          const code = protocolErrors[failure].code;
          const path = '/responses/0/partition_responses/0';
          callback(new ResponseError(0, 3, { [path]: [code, null] }, {}));
          return;
        }
        callback(null, {
          responses: request.batches.map((b) => ({
            name: b.topic,
            partitionResponses: [{ index: b.partition, baseOffset: 10n * BigInt(b.partition) }],
          })),
        });
      },
    };
  }
}

const records = (topic: string, partition: number, count: number): PartitionRecords => ({
  topic,
  partition,
  records: Array.from({ length: count }, (_, i) => ({
    key: Buffer.from(`k${i}`),
    value: Buffer.from(`v${i}`),
    timestamp: 1_000 + i,
  })),
});

describe('PlatformaticProduceSender (on a fake producer)', () => {
  let producer: FakeProducer;
  let sender: PlatformaticProduceSender;
  /** The engine's policy on a clock that the back-off moves. */
  const { clock, retry } = virtualClockPerTest(platformaticTransientFault);
  const send = async (batch: PartitionRecords[], transaction?: PlatformaticTransaction) => {
    const prepared = await sender.prepare(batch, -1, producer.metadataValue, transaction);
    return sender.deliver(prepared, retry, 'Produce to t', (error) => error);
  };

  beforeEach(() => {
    producer = new FakeProducer();
    sender = new PlatformaticProduceSender(producer as unknown as Producer);
  });

  it('sends one request per leader, with the producer id and sequences per partition', async () => {
    const acks = await send([records('t', 0, 3), records('t', 1, 2), records('t', 2, 1)]);
    expect(acks).toEqual([
      { topic: 't', partition: 0, baseOffset: 0 },
      { topic: 't', partition: 2, baseOffset: 20 },
      { topic: 't', partition: 1, baseOffset: 10 },
    ]);
    await send([records('t', 0, 1), records('t', 3, 1)]);
    const batches = producer.sent.map((r) => ({
      broker: r.broker,
      id: r.transactionalId,
      batches: r.batches.map((b) => [b.partition, b.producerId, b.baseSequence, b.records]),
    }));
    expect(batches).toEqual([
      {
        broker: 0,
        id: null,
        batches: [
          [0, 100n, 0, 3],
          [2, 100n, 0, 1],
        ],
      },
      { broker: 1, id: null, batches: [[1, 100n, 0, 2]] },
      { broker: 0, id: null, batches: [[0, 100n, 3, 1]] },
      { broker: 1, id: null, batches: [[3, 100n, 0, 1]] },
    ]);
    expect(producer.sent.flatMap((r) => r.batches).every((b) => !b.transactional)).toBe(true);
    expect(producer.inits).toBe(0);
  });

  it('refuses acks other than -1, as platformatic does for an idempotent producer', async () => {
    await expect(
      sender.prepare([records('t', 0, 1)], 1, producer.metadataValue, undefined),
    ).rejects.toThrow('Idempotent producer requires acks to be ALL (-1).');
  });

  it('takes a new producer id after a failed send outside a transaction', async () => {
    await send([records('t', 0, 2)]);
    producer.failures.push('INVALID_RECORD');
    await expect(send([records('t', 0, 1)])).rejects.toBeInstanceOf(ResponseError);
    await send([records('t', 0, 1)]);
    expect(producer.inits).toBe(1);
    expect(producer.sent.at(-1)!.batches[0]).toMatchObject({ producerId: 101n, baseSequence: 0 });
  });

  it('looks a stale leader up again and sends the same batch until it is acknowledged', async () => {
    producer.failures.push('NOT_LEADER_OR_FOLLOWER');
    await send([records('t', 0, 2)]);
    expect(producer.metadataCleared).toBe(1);
    expect(producer.sent.map((r) => r.batches[0].baseSequence)).toEqual([0, 0]);
    producer.failures.push('NOT_LEADER_OR_FOLLOWER', 'NOT_ENOUGH_REPLICAS', 'REQUEST_TIMED_OUT');
    await send([records('t', 0, 1)]);
    expect(producer.sent.slice(2).map((r) => r.batches[0].baseSequence)).toEqual([2, 2, 2, 2]);
    expect(producer.inits).toBe(0);
  });

  it("sends a dead leader's partitions to the new leader, not the acknowledged ones again (issue #38, C)", async () => {
    // Broker 1 died: its connections are refused (platformatic's retries were spent on them
    // before) until the controller elects broker 0 the leader of its partitions.
    producer.refusalsBeforeMove = 4;
    const acks = await send([records('t', 0, 2), records('t', 1, 3)]);
    expect(acks).toEqual([
      { topic: 't', partition: 0, baseOffset: 0 },
      { topic: 't', partition: 1, baseOffset: 10 },
    ]);
    const sent = producer.sent.map((r) => ({
      broker: r.broker,
      batches: r.batches.map((b) => [b.partition, b.baseSequence, b.records]),
    }));
    expect(sent).toEqual([
      { broker: 0, batches: [[0, 0, 2]] },
      { broker: 0, batches: [[1, 0, 3]] },
    ]);
    expect(producer.metadataCleared).toBe(4);
    expect(clock.ms).toBe(100 + 200 + 400 + 800);
  });

  it('gives up with ClusterFaultTimeoutError once a fault outlasts delivery.timeout.ms', async () => {
    producer.refusalsBeforeMove = Number.MAX_SAFE_INTEGER;
    const error = await send([records('t', 1, 1)]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClusterFaultTimeoutError);
    expect((error as ClusterFaultTimeoutError).bound).toBe('delivery.timeout.ms');
    expect(clock.ms).toBeLessThanOrEqual(120_000);
    expect(clock.ms).toBeGreaterThan(118_000);
    // The next send takes a new producer id: this one's batch may be half written.
    producer.refusalsBeforeMove = 0;
    await send([records('t', 1, 1)]);
    expect(producer.inits).toBe(1);
  });

  it('recovers a lost producer state once with a new id outside a transaction', async () => {
    await send([records('t', 0, 2)]);
    producer.failures.push('OUT_OF_ORDER_SEQUENCE_NUMBER');
    await send([records('t', 0, 1)]);
    expect(producer.inits).toBe(1);
    expect(producer.sent.slice(1).map((r) => r.batches[0])).toMatchObject([
      { producerId: 100n, baseSequence: 2 },
      { producerId: 101n, baseSequence: 0 },
    ]);
  });

  it('adds new partitions to the transaction first, and marks the batches transactional', async () => {
    const added: { topic: string; partition?: number }[][] = [];
    const transaction = {
      id: 'app-1',
      addPartitions: async (
        _metadata: ClusterMetadata,
        messages: { topic: string; partition?: number }[],
      ) => {
        added.push(messages.map(({ topic, partition }) => ({ topic, partition })));
      },
    } as unknown as PlatformaticTransaction;
    await send([records('t', 0, 1), records('t', 1, 1)], transaction);
    expect(added).toEqual([
      [
        { topic: 't', partition: 0 },
        { topic: 't', partition: 1 },
      ],
    ]);
    expect(producer.sent.map((r) => r.transactionalId)).toEqual(['app-1', 'app-1']);
    expect(producer.sent.flatMap((r) => r.batches).every((b) => b.transactional)).toBe(true);
    producer.failures.push('OUT_OF_ORDER_SEQUENCE_NUMBER');
    await expect(send([records('t', 0, 1)], transaction)).rejects.toBeInstanceOf(ResponseError);
    expect(producer.inits).toBe(0); // inside a transaction the error is the caller's: abort
  });
});

describe('ProducerSequences', () => {
  it('gives each partition its next base sequence, counting records', () => {
    const sequences = new ProducerSequences();
    sequences.use(7n, 0);
    expect(sequences.take('t', 0, 3)).toBe(0);
    expect(sequences.take('t', 0, 2)).toBe(3);
    expect(sequences.take('t', 1, 1)).toBe(0);
    expect(sequences.take('u', 0, 1)).toBe(0);
    expect(sequences.take('t', 0, 1)).toBe(5);
  });

  it('keeps counting for the same producer id and epoch, and starts over for new ones', () => {
    const sequences = new ProducerSequences();
    sequences.use(7n, 0);
    sequences.take('t', 0, 3);
    sequences.use(7n, 0);
    expect(sequences.take('t', 0, 1)).toBe(3);
    sequences.use(7n, 1);
    expect(sequences.take('t', 0, 1)).toBe(0);
    sequences.use(8n, 1);
    expect(sequences.take('t', 0, 1)).toBe(0);
    sequences.clear();
    sequences.use(8n, 1);
    expect(sequences.take('t', 0, 1)).toBe(0);
  });
});

describe('incrementSequence', () => {
  it('adds, and wraps past 2^31 - 1 to 0 as the broker counts', () => {
    expect(incrementSequence(0, 5)).toBe(5);
    expect(incrementSequence(0x7fffffff - 5, 5)).toBe(0x7fffffff);
    expect(incrementSequence(0x7fffffff, 1)).toBe(0);
    expect(incrementSequence(0x7fffffff - 1, 3)).toBe(1);
  });
});
