import type { Kafka, Message } from 'kafkajs';
import { DefaultStreamPartitioner } from '@nest-streams/streams';
import {
  EventSequence,
  eventValue,
  type OrderEvent,
} from '../../../apps/event-generator/src/events';

/** Everything known about one user's events: the exact truth of every prefix. */
interface UserTruth {
  readonly partition: number;
  /** `cumCents[n]`: the sum in cents of the user's first `n` events (`cumCents[0] = 0`). */
  readonly cumCents: number[];
  /** Offsets of the user's events, in order, as far as the broker acknowledged them. */
  readonly offsets: number[];
  /** Events handed to the producer so far (sent or in flight): never fewer than on the topic. */
  dispatched: number;
}

/** What the feed produces. */
export interface ChaosEventFeedOptions {
  readonly topic: string;
  readonly partitions: number;
  readonly users: number;
  readonly seed: number;
  readonly events: number;
  /** Events per second. */
  readonly rate: number;
  readonly batchSize?: number;
}

/**
 * Produces the seeded order events of the event generator (`EventSequence`) at a steady rate,
 * with an idempotent producer and the murmur2 partitioning Kafka Streams expects, and keeps
 * the exact truth per user while it runs: how many events were handed to the producer (an upper
 * bound on what any copy of the state may reflect), the cumulative sum after each event, and the
 * offset of each acknowledged event (so a committed input offset gives a lower bound).
 */
export class ChaosEventFeed {
  private readonly sequence: OrderEvent[];
  private readonly truths = new Map<string, UserTruth>();
  private dispatchedTotal = 0;
  private acknowledgedTotal = 0;
  /** Since when the feed is held ({@link hold}); undefined: producing. */
  private heldSince: number | undefined;
  /** Time spent held so far: the schedule moves on by it, so a release is no burst. */
  private heldMs = 0;
  /** Partitions of a batch sent again because the producer resolved without them. */
  resentPartitions = 0;

  constructor(
    private readonly kafka: Kafka,
    readonly options: ChaosEventFeedOptions,
  ) {
    this.sequence = new EventSequence(options.users, options.seed).take(options.events);
    const partitioner = new DefaultStreamPartitioner();
    for (const event of this.sequence) {
      let truth = this.truths.get(event.userId);
      if (!truth) {
        const key = Buffer.from(event.userId, 'utf8');
        truth = {
          partition: partitioner.partition(key, options.partitions),
          cumCents: [0],
          offsets: [],
          dispatched: 0,
        };
        this.truths.set(event.userId, truth);
      }
      truth.cumCents.push(truth.cumCents[truth.cumCents.length - 1] + event.cents);
    }
  }

  /** Users that have at least one event in the whole run, sorted. */
  users(): string[] {
    return [...this.truths.keys()].sort();
  }

  /** Events handed to the producer so far (all users). */
  get dispatched(): number {
    return this.dispatchedTotal;
  }

  /** Events the broker acknowledged so far. */
  get acknowledged(): number {
    return this.acknowledgedTotal;
  }

  /** The partition of a user's events. */
  partitionOf(userId: string): number {
    return this.truth(userId).partition;
  }

  /** How many of the user's events were handed to the producer so far. */
  dispatchedOf(userId: string): number {
    return this.truths.get(userId)?.dispatched ?? 0;
  }

  /** The sum in cents of the user's first `n` events. */
  cumCentsOf(userId: string, n: number): number {
    const cum = this.truth(userId).cumCents;
    if (n < 0 || n >= cum.length) throw new RangeError(`${userId} has no prefix of ${n} events`);
    return cum[n];
  }

  /** How many of the user's acknowledged events lie below `committedOffset` of its partition. */
  committedOf(userId: string, committedOffset: number): number {
    const offsets = this.truths.get(userId)?.offsets ?? [];
    let lo = 0;
    let hi = offsets.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (offsets[mid] < committedOffset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The user's final truth, once everything is produced: count and sum in cents. */
  finalOf(userId: string): { count: number; cents: number } {
    const cum = this.truth(userId).cumCents;
    return { count: cum.length - 1, cents: cum[cum.length - 1] };
  }

  /** Stops producing (a batch in flight completes) until {@link release}. */
  hold(): void {
    this.heldSince ??= Date.now();
  }

  /** Produces again, at the configured rate from where it stopped. */
  release(): void {
    if (this.heldSince === undefined) return;
    this.heldMs += Date.now() - this.heldSince;
    this.heldSince = undefined;
  }

  /** Produces every event at the configured rate; resolves when all are acknowledged. */
  async run(signal?: AbortSignal): Promise<void> {
    const { topic, rate } = this.options;
    const batchSize = this.options.batchSize ?? Math.max(1, Math.ceil(rate / 20));
    const producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
    });
    await producer.connect();
    const started = Date.now();
    try {
      let next = 0;
      while (next < this.sequence.length) {
        if (signal?.aborted) return;
        if (this.heldSince !== undefined) {
          await new Promise((r) => setTimeout(r, 10));
          continue;
        }
        const due = Math.min(
          this.sequence.length,
          Math.floor(((Date.now() - started - this.heldMs) * rate) / 1000) + 1,
        );
        if (due <= next) {
          await new Promise((r) => setTimeout(r, 10));
          continue;
        }
        const batch = this.sequence.slice(next, Math.min(due, next + batchSize));
        next += batch.length;
        await this.send(producer, topic, batch);
      }
    } finally {
      await producer.disconnect();
    }
  }

  private async send(
    producer: ReturnType<Kafka['producer']>,
    topic: string,
    batch: OrderEvent[],
  ): Promise<void> {
    const messages: Message[] = [];
    const perPartition = new Map<number, OrderEvent[]>();
    for (const event of batch) {
      const truth = this.truth(event.userId);
      truth.dispatched++;
      this.dispatchedTotal++;
      messages.push({ key: event.userId, value: eventValue(event), partition: truth.partition });
      const list = perPartition.get(truth.partition) ?? [];
      list.push(event);
      perPartition.set(truth.partition, list);
    }
    // kafkajs (2.2.4) can resolve without the records of a partition: when a partition's leader
    // moves between two attempts of one send (a broker died) to a broker that already answered
    // the first attempt, its retry sends nothing more to that broker (`sendMessages` keeps the
    // answers of brokers that answered) and the moved partition is left out. They were never
    // acknowledged: send them again, with the sequence numbers the idempotent producer gave
    // back, until every partition of the batch is acknowledged.
    let unacknowledged = messages;
    for (;;) {
      const metadata = await producer.send({ topic, messages: unacknowledged });
      for (const { partition, baseOffset } of metadata) {
        const base = Number(baseOffset);
        (perPartition.get(partition) ?? []).forEach((event, i) => {
          this.truth(event.userId).offsets.push(base + i);
        });
        perPartition.delete(partition);
      }
      if (perPartition.size === 0) break;
      this.resentPartitions += perPartition.size;
      unacknowledged = unacknowledged.filter((m) => perPartition.has(m.partition!));
    }
    this.acknowledgedTotal += batch.length;
  }

  private truth(userId: string): UserTruth {
    const truth = this.truths.get(userId);
    if (!truth) throw new Error(`no events for ${userId} in this run`);
    return truth;
  }
}
