import type { Kafka, Producer } from 'kafkajs';

/** One produced order event; `seq` (ignored by the app) identifies it in the topic. */
export interface SteadyEvent {
  readonly seq: number;
  readonly userId: string;
  readonly amount: number;
}

/** Options of a {@link SteadyProducer}. */
export interface SteadyProducerOptions {
  readonly topic: string;
  readonly events: number;
  readonly users: number;
  /** Events per produce request. */
  readonly batchSize: number;
  /** Target events per second (a pause between batches). */
  readonly rate: number;
}

/**
 * Produces a steady stream of order events (`{"userId", "amount", "seq"}`, key = user id) with
 * an idempotent producer, and keeps retrying a batch that fails (a broker outage) until it is
 * acknowledged: the caller's view of "the producer side keeps retrying".
 */
export class SteadyProducer {
  /** Events acknowledged so far. */
  acknowledged = 0;
  /** Produce requests that failed and were retried. */
  failedAttempts = 0;
  /** The longest stretch without an acknowledgement while failing, in ms. */
  longestStallMs = 0;
  /** The last produce error (kept for the report). */
  lastError: string | undefined;
  private producer: Producer | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly options: SteadyProducerOptions,
  ) {}

  /** The event with sequence number `seq` (deterministic: amounts are whole cents). */
  static event(seq: number, users: number): SteadyEvent {
    const userId = `user-${String((seq * 7) % users).padStart(3, '0')}`;
    return { seq, userId, amount: (5 * (((seq * 13) % 20) + 1)) / 100 };
  }

  /** Produces every event, retrying failed batches until `deadline` (epoch ms). */
  async run(deadline: number): Promise<void> {
    const { topic, events, users, batchSize, rate } = this.options;
    this.producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      retry: { retries: 3, initialRetryTime: 200, maxRetryTime: 2000 },
    });
    await this.connect(deadline);
    const started = Date.now();
    for (let first = 0; first < events; first += batchSize) {
      const messages = [];
      for (let seq = first; seq < Math.min(events, first + batchSize); seq++) {
        const e = SteadyProducer.event(seq, users);
        messages.push({ key: e.userId, value: JSON.stringify(e) });
      }
      let stallStart: number | undefined;
      for (;;) {
        try {
          await this.producer.send({ topic, messages, acks: -1 });
          break;
        } catch (error) {
          this.failedAttempts++;
          this.lastError = error instanceof Error ? error.message : String(error);
          stallStart ??= Date.now();
          if (Date.now() > deadline) {
            throw new Error(
              `batch at seq ${first} still failing at the deadline: ${String(error)}`,
            );
          }
          await sleep(500);
        }
      }
      if (stallStart !== undefined) {
        this.longestStallMs = Math.max(this.longestStallMs, Date.now() - stallStart);
      }
      this.acknowledged += messages.length;
      const due = started + (this.acknowledged / rate) * 1000;
      if (due > Date.now()) await sleep(due - Date.now());
    }
  }

  /** Disconnects the producer. */
  async close(): Promise<void> {
    await this.producer?.disconnect().catch(() => undefined);
  }

  private async connect(deadline: number): Promise<void> {
    for (;;) {
      try {
        await this.producer!.connect();
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await sleep(500);
      }
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
