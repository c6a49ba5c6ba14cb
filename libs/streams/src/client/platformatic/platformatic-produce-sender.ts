// Sends a record producer's batches as Produce requests on a @platformatic/kafka producer's
// connections, the record batches encoded by the engine (record-batch-encoder.ts): the
// producer's own send encodes each record field into a buffer of its own and concatenates them
// (most of the platformatic engine's producer time). The platformatic `Producer` still owns
// the producer id and epoch (InitProducerId), the transaction (AddPartitionsToTxn, EndTxn),
// metadata and connections; this module keeps the sequence numbers, and the record producer
// retries its attempts through the engine's retry policy.
import {
  findErrorBy,
  kOptions,
  ProtocolError,
  ResponseError,
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
import type { ClusterRetry } from '../cluster-retry/cluster-retry';

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

/** One partition's records of a send, encoded once: an attempt resends the same batch. */
interface EncodedSendPartition {
  readonly topic: string;
  readonly partition: number;
  readonly records: PartitionRecords;
  batch: Buffer;
}

/** The producer identity one request's batches carry. */
interface Identity {
  readonly producerId: bigint;
  readonly producerEpoch: number;
  readonly transactionalId: string | null;
}

/**
 * One send in progress: its partitions encoded once (their sequence numbers taken once), the
 * acknowledged ones, and those still to send. See {@link PlatformaticProduceSender.deliver}.
 */
export class PendingSend {
  readonly acks: PartitionAck[] = [];
  readonly pending = new Map<string, EncodedSendPartition>();
  /** The lost producer state was recovered once (outside a transaction). */
  recovered = false;

  constructor(
    readonly api: ProduceApi,
    readonly acksMode: number,
    readonly transaction: PlatformaticTransaction | undefined,
    public identity: Identity,
  ) {}

  /** The topics of the partitions still to send. */
  topics(): string[] {
    return [...new Set([...this.pending.values()].map((p) => p.topic))];
  }
}

/**
 * Sends records through a platformatic `Producer`'s connections with the engine's encoder,
 * keeping its semantics: idempotent batches (its producer id and epoch, sequence numbers per
 * partition), acks -1 only, one Produce request per leader, sent concurrently. A send is
 * {@link prepare}d (each new partition added to the transaction first, platformatic's
 * `addPartitions`; outside a transaction a new producer id after a failed send), then
 * {@link deliver}ed: attempted until every partition is acknowledged; each attempt sends the partitions not
 * acknowledged yet, with the batches (and sequence numbers) of the first, to their leaders as the
 * metadata names them then, so the broker drops a batch it wrote already (idempotence) and a
 * partition whose leader moved reaches the new one. A lost producer state (UNKNOWN_PRODUCER_ID,
 * OUT_OF_ORDER_SEQUENCE_NUMBER) outside a transaction is recovered once with a new producer id.
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
   * Prepares `batch` (its partitions checked against `metadata`) for {@link attempt}: adds its
   * partitions to `transaction` when given, takes a new producer id after a failed send outside
   * one, and encodes each partition's records once.
   *
   * @throws platformatic's errors (`UserError` for acks other than -1; AddPartitionsToTxn's and
   *   InitProducerId's errors after platformatic's retries): nothing was sent, prepare again.
   */
  async prepare(
    batch: readonly PartitionRecords[],
    acks: number,
    metadata: ClusterMetadata,
    transaction: PlatformaticTransaction | undefined,
  ): Promise<PendingSend> {
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
    const send = new PendingSend(api, acks, transaction, this.identity(transaction));
    for (const records of batch) {
      const { topic, partition } = records;
      send.pending.set(`${topic}:${partition}`, { topic, partition, records, batch: EMPTY });
    }
    this.encode(send);
    return send;
  }

  /**
   * One attempt of `send`: its partitions not acknowledged yet, one Produce request per leader
   * (looked up in the producer's metadata, asked again when `refreshMetadata`), concurrently;
   * each acknowledged partition leaves `pending`. Every request ends before the attempt does,
   * failed or not (the next send never overtakes one of this send's requests).
   *
   * @throws the first request's error when a partition is left (platformatic's `ResponseError`,
   *   `NetworkError`, `TimeoutError`; a leaderless partition's LEADER_NOT_AVAILABLE).
   */
  private async attempt(send: PendingSend, refreshMetadata: boolean): Promise<void> {
    const metadata = await this.producer.metadata({
      topics: send.topics(),
      forceUpdate: refreshMetadata,
      retries: 0,
    });
    const byLeader = new Map<number, EncodedSendPartition[]>();
    let leaderless: EncodedSendPartition | undefined;
    for (const entry of send.pending.values()) {
      const leader = metadata.topics.get(entry.topic)?.partitions[entry.partition]?.leader;
      if (leader === undefined || !metadata.brokers.has(leader)) {
        leaderless ??= entry;
        continue;
      }
      let list = byLeader.get(leader);
      if (!list) byLeader.set(leader, (list = []));
      list.push(entry);
    }
    const timeout = this.producer[kOptions].timeout ?? DEFAULT_TIMEOUT_MS;
    const settled = await Promise.allSettled(
      [...byLeader].map(async ([leader, entries]) => {
        const connection = await this.producer.connections.get(metadata.brokers.get(leader)!);
        const topics = topicsOf(entries);
        return send.api.async(
          connection,
          send.identity.transactionalId,
          send.acksMode,
          timeout,
          topics,
        );
      }),
    );
    let failure: unknown;
    for (const outcome of settled) {
      const response =
        outcome.status === 'fulfilled'
          ? outcome.value
          : outcome.reason instanceof ResponseError
            ? (outcome.reason.response as ProduceResponse | undefined)
            : undefined;
      if (outcome.status === 'rejected') failure ??= outcome.reason;
      for (const { name, partitionResponses } of response?.responses ?? []) {
        for (const { index, baseOffset, errorCode } of partitionResponses as PartitionOutcome[]) {
          const key = `${name}:${index}`;
          if ((errorCode ?? 0) !== 0 || !send.pending.has(key)) continue;
          send.pending.delete(key);
          send.acks.push({ topic: name, partition: index, baseOffset: Number(baseOffset) });
        }
      }
    }
    if (send.pending.size === 0) return;
    if (failure === undefined && leaderless) {
      this.producer.clearMetadata();
      failure = new ProtocolError(
        'LEADER_NOT_AVAILABLE',
        `no leader of ${leaderless.topic}-${leaderless.partition} in the metadata`,
      );
    }
    if (!send.transaction && !send.recovered && isProducerStateLost(failure)) {
      // The broker lost this producer's state: a new producer id, the batches encoded again.
      send.recovered = true;
      this.sequences.clear();
      await this.producer.initIdempotentProducer({});
      send.identity = this.identity(undefined);
      this.encode(send);
      return this.attempt(send, false);
    }
    throw failure ?? new Error('the broker acknowledged no record of the send');
  }

  /**
   * {@link attempt}s `send` through the engine's retry policy (`delivery.timeout.ms`) until every
   * partition is acknowledged: after a transient fault (a leader that moved or died, too few
   * in-sync replicas, a timeout) the metadata is asked again and the partitions left are sent
   * to their leaders then. `typed` types an attempt's error before the policy classifies it.
   * Once given up, outside a transaction the next send takes a new producer id first.
   *
   * @throws the typed error of an attempt when it is not transient; `ClusterFaultTimeoutError`
   *   when a fault outlasted `delivery.timeout.ms`.
   */
  async deliver(
    send: PendingSend,
    retry: ClusterRetry,
    name: string,
    typed: (error: unknown) => unknown,
  ): Promise<PartitionAck[]> {
    let refresh = false;
    try {
      await retry.run({
        name,
        bound: 'delivery',
        attempt: () =>
          this.attempt(send, refresh).catch((error: unknown) => {
            throw typed(error);
          }),
        onFault: () => {
          refresh = true;
          this.producer.clearMetadata();
        },
        stopped: () => this.producer.closed,
      });
    } catch (error) {
      if (!send.transaction) this.renewProducerId = true;
      throw error;
    }
    return send.acks;
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

  /** One record batch per pending partition, each taking its sequence numbers. */
  private encode(send: PendingSend): void {
    for (const entry of send.pending.values()) {
      entry.batch = encodeRecordBatch(entry.records.records, {
        producerId: send.identity.producerId,
        producerEpoch: send.identity.producerEpoch,
        baseSequence: this.sequences.take(
          entry.topic,
          entry.partition,
          entry.records.records.length,
        ),
        transactional: send.identity.transactionalId !== null,
      });
    }
  }
}

/** A partition of a Produce answer, with the error code platformatic's parser keeps. */
interface PartitionOutcome {
  readonly index: number;
  readonly baseOffset: bigint;
  readonly errorCode?: number;
}

/** The request's topics of `entries`, each with its partitions' batches. */
function topicsOf(entries: readonly EncodedSendPartition[]): EncodedTopic[] {
  const topics = new Map<
    string,
    { topic: string; partitions: { partition: number; batch: Buffer }[] }
  >();
  for (const { topic, partition, batch } of entries) {
    let entry = topics.get(topic);
    if (!entry) topics.set(topic, (entry = { topic, partitions: [] }));
    entry.partitions.push({ partition, batch });
  }
  return [...topics.values()];
}

const EMPTY = Buffer.alloc(0);

/** The errors after which platformatic's producer takes a new producer id (outside a transaction). */
function isProducerStateLost(error: unknown): boolean {
  return (
    !!findErrorBy(error as Error, 'apiId', 'UNKNOWN_PRODUCER_ID') ||
    !!findErrorBy(error as Error, 'apiId', 'OUT_OF_ORDER_SEQUENCE_NUMBER')
  );
}
