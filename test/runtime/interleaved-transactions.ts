import type { Kafka, Producer, Transaction } from 'kafkajs';
import { randomSuffix } from '../support/kafka-test-context';

/** One record a scenario wrote: its key, the transaction that wrote it, a global sequence. */
export interface TxRecord {
  readonly key: string;
  /** The transaction's name, e.g. `A1`. */
  readonly txn: string;
  /** 1-based, in the order the records were sent (log order per partition). */
  readonly seq: number;
}

/** What a scenario wrote, in send order, split by how each transaction ended. */
export interface TxOutcome {
  readonly committed: TxRecord[];
  readonly aborted: TxRecord[];
}

/** Encodes a record's value as the reader under test expects it (event or store value). */
export type ValueOf = (record: TxRecord) => string;

/**
 * Several transactional producers (distinct transactional ids) writing to one topic with their
 * transactions open at the same time. Each `send` waits for the broker's ack, so the log order
 * of every partition is the order of the calls; keys are partitioned by kafkajs' default
 * (murmur2, as Java's and the engine's) partitioner.
 */
export class InterleavedTransactions {
  private readonly producers = new Map<string, Producer>();
  private readonly open = new Map<string, { producer: string; tx: Transaction }>();
  private readonly written = new Map<string, TxRecord[]>();
  private readonly outcome: TxOutcome = { committed: [], aborted: [] };
  private seq = 0;

  constructor(
    private readonly kafka: Kafka,
    private readonly topic: string,
    private readonly valueOf: ValueOf,
  ) {}

  /** Opens transaction `txn` on producer `producer` (connected on first use). */
  async begin(producer: string, txn: string): Promise<void> {
    let p = this.producers.get(producer);
    if (!p) {
      p = this.kafka.producer({
        transactionalId: `rc-${producer}-${randomSuffix()}`,
        idempotent: true,
        maxInFlightRequests: 1,
      });
      await p.connect();
      this.producers.set(producer, p);
    }
    this.open.set(txn, { producer, tx: await p.transaction() });
    this.written.set(txn, []);
  }

  /** Sends one batch in `txn`: `count` records with keys `${prefix}-${i % keys}`. */
  async send(txn: string, prefix: string, count: number, keys: number): Promise<void> {
    const { tx } = this.open.get(txn)!;
    const records = Array.from({ length: count }, (_, i) => ({
      key: `${prefix}-${i % keys}`,
      txn,
      seq: ++this.seq,
    }));
    await tx.send({
      topic: this.topic,
      messages: records.map((r) => ({ key: r.key, value: this.valueOf(r) })),
    });
    this.written.get(txn)!.push(...records);
  }

  async commit(txn: string): Promise<void> {
    await this.open.get(txn)!.tx.commit();
    this.end(txn, this.outcome.committed);
  }

  async abort(txn: string): Promise<void> {
    await this.open.get(txn)!.tx.abort();
    this.end(txn, this.outcome.aborted);
  }

  /** Everything committed and aborted so far (records of open transactions excluded). */
  result(): TxOutcome {
    const bySeq = (a: TxRecord, b: TxRecord): number => a.seq - b.seq;
    return {
      committed: [...this.outcome.committed].sort(bySeq),
      aborted: [...this.outcome.aborted].sort(bySeq),
    };
  }

  async disconnect(): Promise<void> {
    await Promise.all([...this.producers.values()].map((p) => p.disconnect()));
  }

  private end(txn: string, into: TxRecord[]): void {
    into.push(...this.written.get(txn)!);
    this.open.delete(txn);
    this.written.delete(txn);
  }
}

/**
 * The shared scenario: producers P1, P2 and P3 with transactions interleaved in time.
 *
 * - A1 (P1, aborted) is open across B1 (P2, committed), C1 (P3, committed) and C2 (P3, aborted);
 *   its first records arrive before B1's committed ones, and its last writes to the `s-*` keys
 *   come after B1's committed writes to them (a reader applying them shadows B1's values).
 * - C2 begins after A1 but is aborted before it: the broker lists aborted transactions in the
 *   order they ended, so A1 comes second although its records come first.
 * - With `perSend` records of ~1 KB per batch the log spans several 1 MB fetches, so a fetch
 *   starts inside A1 and C2 at once.
 * - A2 (P1, aborted) overlaps B2 (P2, committed); a last committed transaction of P3 writes
 *   the `end-*` keys, the sentinel that a reader has read everything.
 *
 * Keys: `s-*` written by committed and aborted transactions, `b-*`/`c-*` committed only,
 * `xa-*`/`xc-*` aborted only, `end-*` committed last.
 */
export async function writeInterleavedScenario(
  writer: InterleavedTransactions,
  perSend: number,
): Promise<TxOutcome> {
  const k = 12;
  await writer.begin('P1', 'A1');
  await writer.send('A1', 'xa', perSend, k);
  await writer.begin('P2', 'B1');
  await writer.send('B1', 's', perSend, k);
  await writer.send('A1', 'xa', perSend, k);
  await writer.send('B1', 'b', perSend, k);
  await writer.begin('P3', 'C1');
  await writer.send('C1', 'c', perSend, k);
  await writer.commit('C1');
  await writer.begin('P3', 'C2');
  await writer.send('C2', 'xc', perSend, k);
  await writer.send('A1', 's', perSend, k);
  await writer.send('B1', 'b', perSend, k);
  await writer.send('C2', 's', perSend, k);
  await writer.abort('C2');
  await writer.send('A1', 'xa', perSend, k);
  await writer.abort('A1');
  await writer.send('B1', 'b', perSend, k);
  await writer.commit('B1');
  await writer.begin('P1', 'A2');
  await writer.send('A2', 's', perSend, k);
  await writer.begin('P2', 'B2');
  await writer.send('B2', 'c', perSend, k);
  await writer.send('A2', 'xa', perSend, k);
  await writer.abort('A2');
  await writer.send('B2', 'b', perSend, k);
  await writer.commit('B2');
  await writer.begin('P3', 'C3');
  await writer.send('C3', 'end', 4, 4);
  await writer.commit('C3');
  return writer.result();
}

/** The last committed record of each key (what a restored or standby store must hold). */
export function lastCommitted(outcome: TxOutcome): Map<string, string> {
  const last = new Map<string, string>();
  for (const r of outcome.committed) last.set(r.key, `${r.txn}#${r.seq}`);
  return last;
}

/** Keys whose last write in the log is aborted while an earlier one was committed. */
export function shadowedKeys(outcome: TxOutcome): string[] {
  const committed = lastCommitted(outcome);
  const lastAborted = new Map<string, number>();
  for (const r of outcome.aborted) lastAborted.set(r.key, r.seq);
  return [...committed.keys()].filter((key) => {
    const abortedSeq = lastAborted.get(key);
    const committedSeq = Number(committed.get(key)!.split('#')[1]);
    return abortedSeq !== undefined && abortedSeq > committedSeq;
  });
}
