import { Kafka, logLevel, Partitioners, type Message, type Producer } from 'kafkajs';
import { EventSequence, eventValue, malformedRecord } from './events';
import { dueAtMs, dueCount, malformedSpacing } from './pacing';
import { ensureTopic, type TopicStatus } from './topic';
import { TruthRecorder, type TruthReport } from './truth';

/** Default number of partitions of a topic the generator has to create. */
export const DEFAULT_PARTITIONS = 6;

/** What to produce, where, and how fast. */
export interface GeneratorOptions {
  /** Bootstrap servers, `host:port` each. */
  readonly brokers: readonly string[];
  readonly topic: string;
  /** Number of user ids (`user-001`..) events are drawn from. */
  readonly users: number;
  /** Seed of the event sequence: the same seed and users give the same events. */
  readonly seed: number;
  /** Stop after this many valid events. At least one of `events` and `durationMs` is needed. */
  readonly events?: number;
  /** Stop after this long (ms). */
  readonly durationMs?: number;
  /** Valid events per second; undefined or 0 for as fast as the broker takes them. */
  readonly rate?: number;
  /** Malformed records to send among the valid ones (the application must skip them). */
  readonly malformed?: number;
  /** Partitions of the topic when the generator creates it; default {@link DEFAULT_PARTITIONS}. */
  readonly partitions?: number;
  /**
   * Repeatable timestamps: valid event `i` gets `startTime + i * stepMs`. Default: the wall
   * clock when the event is sent.
   */
  readonly startTime?: number;
  /** Step between repeatable timestamps, ms; default 0 (with `startTime`). */
  readonly stepMs?: number;
  /** Most records per produce request; default 500. */
  readonly batchSize?: number;
  /** Kafka client id; default `event-generator`. */
  readonly clientId?: string;
  /** kafkajs' log level; default NOTHING (errors surface as rejections), INFO with KAFKAJS_LOG. */
  readonly kafkaLogLevel?: logLevel;
}

/** Progress after each acknowledged produce request. */
export interface GeneratorProgress {
  /** Valid events acknowledged so far. */
  readonly events: number;
  /** Malformed records acknowledged so far. */
  readonly malformed: number;
  readonly elapsedMs: number;
}

/** How a run ended. */
export interface GeneratorSummary extends GeneratorProgress {
  /** The topic as found (or created) before producing. */
  readonly topicStatus: TopicStatus;
  /** Valid events per second over the run. */
  readonly eventsPerSec: number;
  /** True when the run stopped early on its abort signal. */
  readonly aborted: boolean;
  readonly truth: TruthReport;
}

/**
 * Produces the contract's order events to a Kafka topic: value `{"userId", "amount"}` (JSON,
 * amounts with 2 decimals), key = user id (UTF-8), record timestamp = event time. Events come
 * from a seeded {@link EventSequence}; the producer is idempotent (no duplicates on retries)
 * and uses the Java-compatible murmur2 partitioner, so keys land where Kafka Streams expects.
 *
 * {@link EventGenerator.truth} holds the true totals of every acknowledged record and can be
 * read while the run goes on.
 */
export class EventGenerator {
  /** True totals of what the broker acknowledged so far. */
  readonly truth: TruthRecorder;
  private readonly sequence: EventSequence;

  constructor(readonly options: GeneratorOptions) {
    const { events, durationMs, rate, malformed, users } = options;
    if (events === undefined && durationMs === undefined) {
      throw new RangeError('give an event count, a duration, or both');
    }
    checkCount('events', events, 0);
    checkCount('malformed', malformed, 0);
    checkCount('partitions', options.partitions, 1);
    checkCount('batchSize', options.batchSize, 1);
    if (durationMs !== undefined && !(durationMs >= 0)) throw new RangeError('bad duration');
    if (rate !== undefined && !(rate >= 0 && Number.isFinite(rate))) {
      throw new RangeError(`rate must be >= 0, got ${rate}`);
    }
    if (options.brokers.length === 0) throw new RangeError('no brokers given');
    this.sequence = new EventSequence(users, options.seed);
    this.truth = new TruthRecorder(options.topic, options.seed, users);
  }

  /**
   * Runs to the end (the event count or the duration, whichever comes first), or until
   * `signal` aborts: the produce request in flight is awaited and recorded, then the run stops
   * and the summary says `aborted`. Rejects when Kafka fails (the truth then holds what was
   * acknowledged before).
   */
  async run(
    signal?: AbortSignal,
    onProgress?: (progress: GeneratorProgress) => void,
  ): Promise<GeneratorSummary> {
    const o = this.options;
    const kafka = new Kafka({
      clientId: o.clientId ?? 'event-generator',
      brokers: [...o.brokers],
      logLevel: o.kafkaLogLevel ?? (process.env.KAFKAJS_LOG ? logLevel.INFO : logLevel.NOTHING),
    });
    const admin = kafka.admin();
    await admin.connect();
    let topicStatus: TopicStatus;
    try {
      topicStatus = await ensureTopic(admin, o.topic, o.partitions ?? DEFAULT_PARTITIONS);
    } finally {
      await admin.disconnect();
    }

    const producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await producer.connect();
    const started = performance.now();
    const elapsed = (): number => performance.now() - started;
    let aborted = false;
    try {
      aborted = await this.produceAll(producer, elapsed, signal, onProgress);
    } finally {
      await producer.disconnect();
    }
    const elapsedMs = elapsed();
    return {
      events: this.truth.events,
      malformed: this.truth.malformed,
      elapsedMs,
      topicStatus,
      eventsPerSec: elapsedMs > 0 ? (this.truth.events * 1000) / elapsedMs : 0,
      aborted,
      truth: this.truth.report(),
    };
  }

  /** The produce loop; resolves true when stopped by the signal. */
  private async produceAll(
    producer: Producer,
    elapsed: () => number,
    signal: AbortSignal | undefined,
    onProgress: ((progress: GeneratorProgress) => void) | undefined,
  ): Promise<boolean> {
    const o = this.options;
    const batchSize = o.batchSize ?? 500;
    const malformedTotal = o.malformed ?? 0;
    const spacing = malformedSpacing(o.events, malformedTotal);
    let valid = 0;
    let malformedQueued = 0;
    const progress = (): void =>
      onProgress?.({
        events: this.truth.events,
        malformed: this.truth.malformed,
        elapsedMs: elapsed(),
      });

    for (;;) {
      if (signal?.aborted) return true;
      const now = elapsed();
      if (o.durationMs !== undefined && now >= o.durationMs) break;
      if (o.events !== undefined && valid >= o.events) break;
      const due = Math.min(dueCount(now, o.rate), o.events ?? Number.POSITIVE_INFINITY);
      const n = Math.min(due - valid, batchSize);
      if (n <= 0) {
        let wait = dueAtMs(valid, o.rate!) - now;
        if (o.durationMs !== undefined) wait = Math.min(wait, o.durationMs - now);
        await sleep(Math.max(1, Math.min(wait, 100)), signal);
        continue;
      }

      const messages: Message[] = [];
      const recorded: Array<() => void> = [];
      for (let k = 0; k < n; k++) {
        const event = this.sequence.next();
        const timestamp = this.timestampOf(event.index);
        messages.push({
          key: event.userId,
          value: eventValue(event),
          timestamp: String(timestamp),
        });
        recorded.push(() => this.truth.record(event.userId, event.cents, timestamp));
        valid++;
        if (valid % spacing === 0 && malformedQueued < malformedTotal) {
          messages.push(this.malformedMessage(malformedQueued++, timestamp));
          recorded.push(() => this.truth.recordMalformed());
        }
      }
      await producer.send({ topic: o.topic, messages, acks: -1 });
      for (const record of recorded) record();
      progress();
    }

    if (malformedQueued < malformedTotal) {
      const messages: Message[] = [];
      const timestamp = this.timestampOf(valid);
      while (malformedQueued < malformedTotal) {
        messages.push(this.malformedMessage(malformedQueued++, timestamp));
      }
      await producer.send({ topic: o.topic, messages, acks: -1 });
      for (let k = 0; k < messages.length; k++) this.truth.recordMalformed();
      progress();
    }
    return false;
  }

  private timestampOf(index: number): number {
    const { startTime, stepMs } = this.options;
    return startTime === undefined ? Date.now() : startTime + index * (stepMs ?? 0);
  }

  private malformedMessage(j: number, timestamp: number): Message {
    const { key, value } = malformedRecord(j, this.options.users);
    return { key, value, timestamp: String(timestamp) };
  }
}

/** Runs one generator to its end; see {@link EventGenerator.run}. */
export function runGenerator(
  options: GeneratorOptions,
  signal?: AbortSignal,
  onProgress?: (progress: GeneratorProgress) => void,
): Promise<GeneratorSummary> {
  return new EventGenerator(options).run(signal, onProgress);
}

function checkCount(name: string, value: number | undefined, min: number): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= min)) {
    throw new RangeError(`${name} must be an integer >= ${min}, got ${value}`);
  }
}

/** Waits `ms`, or less when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
