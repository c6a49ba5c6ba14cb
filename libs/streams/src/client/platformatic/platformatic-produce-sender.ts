// Sends a record producer's batches as Produce requests on a @platformatic/kafka producer's
// connections, the record batches encoded by the engine (record-batch-encoder.ts): the
// producer's own send encodes each record field into a buffer of its own and concatenates them
// (most of the platformatic engine's producer time). The platformatic `Producer` still owns
// the producer id and epoch (InitProducerId), the transaction (AddPartitionsToTxn, EndTxn),
// metadata, connections and retries; this module keeps the sequence numbers.
import {
  findErrorBy,
  kOptions,
  kPerformWithRetry,
  NetworkError,
  UserError,
  type API,
  type ClusterMetadata,
  type MessageRecord,
  type Producer,
} from '@platformatic/kafka';
import { encodeRecordBatch } from '../wire-format/record-batch-encoder';
import type { PartitionAck, PartitionRecords } from '../record-producer';
import {
  commonProduceVersion,
  PRODUCE_API_KEY,
  PRODUCE_VERSIONS,
  rawProduceApi,
  type EncodedTopic,
  type ProduceRequestArguments,
  type ProduceResponse,
  type ProduceVersion,
} from './platformatic-produce-request';
import { NegotiatedApi } from './platformatic-negotiated-api';

type ProduceApi = API<ProduceRequestArguments, ProduceResponse>;

/** A platformatic transaction (the package exports no type of its own for it). */
export type PlatformaticTransaction = Awaited<ReturnType<Producer['beginTransaction']>>;

/** platformatic's default request timeout, sent as the Produce timeout when none is set. */
const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * The next sequence number of each partition, for one producer id and epoch, as platformatic's
 * producer keeps them: a send takes as many numbers as it has records for the partition, before
 * it goes out; a new producer id or epoch starts every partition at 0. Numbers wrap past
 * 2^31 - 1 to 0, as Java's producer and the broker count them.
 */
export class ProducerSequences {
  private readonly next = new Map<string, number>();
  private producerId: bigint | undefined;
  private producerEpoch: number | undefined;

  /** Starts every partition over when `producerId` and `producerEpoch` are not the last ones. */
  use(producerId: bigint, producerEpoch: number): void {
    if (producerId === this.producerId && producerEpoch === this.producerEpoch) return;
    this.producerId = producerId;
    this.producerEpoch = producerEpoch;
    this.next.clear();
  }

  /** The base sequence of `count` records to `topic`-`partition`; the next send follows them. */
  take(topic: string, partition: number, count: number): number {
    const key = `${topic}:${partition}`;
    const base = this.next.get(key) ?? 0;
    this.next.set(key, incrementSequence(base, count));
    return base;
  }

  /** Forgets every partition's numbers (a new producer id is coming). */
  clear(): void {
    this.next.clear();
    this.producerId = undefined;
    this.producerEpoch = undefined;
  }
}

/** `sequence` + `increment`, wrapping past 2^31 - 1 to 0 (Java's `incrementSequence`). */
export function incrementSequence(sequence: number, increment: number): number {
  const max = 0x7fffffff;
  return sequence > max - increment ? increment - (max - sequence) - 1 : sequence + increment;
}

/** The partitions of one send that go to one leader. */
interface Destination {
  /** A partition of the destination: its leader is looked up again on every attempt. */
  readonly first: { readonly topic: string; readonly partition: number };
  readonly partitions: PartitionRecords[];
}

/** The producer identity one request's batches carry. */
interface Identity {
  readonly producerId: bigint;
  readonly producerEpoch: number;
  readonly transactionalId: string | null;
}

/**
 * Sends records through a platformatic `Producer`'s connections with the engine's encoder,
 * keeping its semantics: idempotent batches (its producer id and epoch, sequence numbers per
 * partition), acks -1 only, one Produce request per leader, sent concurrently, each retried by
 * platformatic's retry loop (its `retries` and `retryDelay`; a stale leader is not retried but
 * looked up again and sent once more), a lost producer state (UNKNOWN_PRODUCER_ID,
 * OUT_OF_ORDER_SEQUENCE_NUMBER) outside a transaction recovered once with a new producer id,
 * and after a failed send outside a transaction a new producer id before the next one. Inside a
 * transaction each new partition is added to it first (platformatic's `addPartitions`).
 */
export class PlatformaticProduceSender {
  private readonly sequences = new ProducerSequences();
  private readonly produceApi: NegotiatedApi<ProduceVersion, ProduceApi>;
  private renewProducerId = false;

  /** @param producer an idempotent platformatic producer; its own `send` is never called. */
  constructor(private readonly producer: Producer) {
    this.produceApi = new NegotiatedApi(producer, {
      apiKey: PRODUCE_API_KEY,
      name: 'Produce',
      needs: `this producer needs v${PRODUCE_VERSIONS.min} to v${PRODUCE_VERSIONS.max}`,
      commonVersion: commonProduceVersion,
      create: rawProduceApi,
    });
  }

  /**
   * Sends `batch` (its partitions checked against `metadata`), in `transaction` when given, and
   * resolves with each partition's base offset.
   *
   * @throws platformatic's errors as its producer reports them (`ResponseError`,
   *   `MultipleErrors` after retries, `NetworkError`, `UserError` for acks other than -1).
   */
  async send(
    batch: readonly PartitionRecords[],
    acks: number,
    metadata: ClusterMetadata,
    transaction: PlatformaticTransaction | undefined,
  ): Promise<PartitionAck[]> {
    if (acks !== -1) throw new UserError('Idempotent producer requires acks to be ALL (-1).');
    const api = await this.produceApi.get();
    if (transaction) {
      const added: MessageRecord[] = batch.map(({ topic, partition }) => ({
        topic,
        partition,
        value: EMPTY,
      }));
      await transaction.addPartitions(metadata, added);
    } else if (this.renewProducerId || this.producer.producerId === undefined) {
      this.sequences.clear();
      await this.producer.initIdempotentProducer({});
      this.renewProducerId = false;
    }
    const identity = this.identity(transaction);
    const destinations = new Map<number, Destination>();
    for (const partitionRecords of batch) {
      const { topic, partition } = partitionRecords;
      const leader = metadata.topics.get(topic)!.partitions[partition].leader;
      let destination = destinations.get(leader);
      if (!destination) {
        destinations.set(leader, (destination = { first: { topic, partition }, partitions: [] }));
      }
      destination.partitions.push(partitionRecords);
    }
    const requests = [...destinations.values()].map((d) => ({
      destination: d,
      topics: this.encode(d.partitions, identity),
    }));
    // Every request ends before the send does, failed or not (as platformatic's producer
    // waits for each destination): the next send never overtakes one of this send's requests.
    const settled = await Promise.allSettled(
      requests.map(({ destination, topics }) =>
        this.sendTo(api, destination, topics, identity, acks, true, !transaction),
      ),
    );
    const result: PartitionAck[] = [];
    for (const outcome of settled) {
      if (outcome.status === 'rejected') {
        if (!transaction) this.renewProducerId = true;
        throw outcome.reason;
      }
      for (const { name, partitionResponses } of outcome.value.responses) {
        for (const { index, baseOffset } of partitionResponses) {
          result.push({ topic: name, partition: index, baseOffset: Number(baseOffset) });
        }
      }
    }
    return result;
  }

  /** The producer's current id and epoch, the sequence numbers following them. */
  private identity(transaction: PlatformaticTransaction | undefined): Identity {
    const { producerId, producerEpoch } = this.producer;
    if (producerId === undefined || producerEpoch === undefined) {
      throw new Error('the producer has no producer id');
    }
    this.sequences.use(producerId, producerEpoch);
    return { producerId, producerEpoch, transactionalId: transaction ? transaction.id : null };
  }

  /** One record batch per partition, each taking its sequence numbers. */
  private encode(partitions: readonly PartitionRecords[], identity: Identity): EncodedTopic[] {
    const topics = new Map<string, EncodedTopic & { partitions: unknown[] }>();
    for (const { topic, partition, records } of partitions) {
      let entry = topics.get(topic);
      if (!entry) topics.set(topic, (entry = { topic, partitions: [] }));
      const batch = encodeRecordBatch(records, {
        producerId: identity.producerId,
        producerEpoch: identity.producerEpoch,
        baseSequence: this.sequences.take(topic, partition, records.length),
        transactional: identity.transactionalId !== null,
      });
      entry.partitions.push({ partition, batch });
    }
    return [...topics.values()];
  }

  /**
   * One Produce request to a destination's leader through platformatic's retry loop, as its
   * producer sends one (`#performSingleDestinationSend`).
   */
  private async sendTo(
    api: ProduceApi,
    destination: Destination,
    topics: readonly EncodedTopic[],
    identity: Identity,
    acks: number,
    repeatOnStaleMetadata: boolean,
    recoverProducerState: boolean,
  ): Promise<ProduceResponse> {
    try {
      return await this.attempts(api, destination, topics, identity, acks, repeatOnStaleMetadata);
    } catch (error) {
      const err = error as Error;
      if (repeatOnStaleMetadata && findErrorBy(err, 'hasStaleMetadata', true)) {
        this.producer.clearMetadata();
        return this.sendTo(api, destination, topics, identity, acks, false, recoverProducerState);
      }
      if (recoverProducerState && isProducerStateLost(err)) {
        this.sequences.clear();
        await this.producer.initIdempotentProducer({});
        const renewed = this.identity(undefined);
        const encoded = this.encode(destination.partitions, renewed);
        return this.sendTo(api, destination, encoded, renewed, acks, repeatOnStaleMetadata, false);
      }
      throw error;
    }
  }

  private attempts(
    api: ProduceApi,
    { first }: Destination,
    topics: readonly EncodedTopic[],
    identity: Identity,
    acks: number,
    repeatOnStaleMetadata: boolean,
  ): Promise<ProduceResponse> {
    const names = topics.map((t) => t.topic);
    const timeout = this.producer[kOptions].timeout ?? DEFAULT_TIMEOUT_MS;
    let refreshMetadata = false;
    return new Promise((resolve, reject) => {
      void this.producer[kPerformWithRetry]<ProduceResponse>(
        'produce',
        (retryCallback) => {
          this.producer
            .metadata({ topics: names, forceUpdate: refreshMetadata, retries: 0 })
            .then((metadata) => {
              refreshMetadata = false;
              const leader = metadata.topics.get(first.topic)!.partitions[first.partition].leader;
              return this.producer.connections.get(metadata.brokers.get(leader)!);
            })
            .then((connection) =>
              api.async(connection, identity.transactionalId, acks, timeout, topics),
            )
            .then(
              (response) => retryCallback(null, response),
              (error: Error) => {
                refreshMetadata = NetworkError.isRetryable(error);
                retryCallback(error);
              },
            );
        },
        (error, response) => (error ? reject(error) : resolve(response!)),
        0,
        [],
        (error) => repeatOnStaleMetadata && !!findErrorBy(error, 'hasStaleMetadata', true),
      );
    });
  }
}

const EMPTY = Buffer.alloc(0);

/** The errors after which platformatic's producer takes a new producer id (outside a transaction). */
function isProducerStateLost(error: Error): boolean {
  return (
    !!findErrorBy(error, 'apiId', 'UNKNOWN_PRODUCER_ID') ||
    !!findErrorBy(error, 'apiId', 'OUT_OF_ORDER_SEQUENCE_NUMBER')
  );
}
