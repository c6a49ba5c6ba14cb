import { RecordCollectorSendError } from '../../errors/record-collector-send.error';
import { KafkaRecordCollector, type BatchSender } from './kafka-record-collector';
import type { PartitionAck, PartitionRecords, SendOptions } from './partition-records';

class FakeSender implements BatchSender {
  readonly batches: { partitions: readonly PartitionRecords[]; options?: SendOptions }[] = [];
  private readonly next = new Map<string, number>();
  failNext = false;
  inFlight = 0;
  maxInFlight = 0;

  async send(
    partitions: readonly PartitionRecords[],
    options?: SendOptions,
  ): Promise<PartitionAck[]> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await new Promise((resolve) => setTimeout(resolve, 5));
    this.inFlight--;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('broker said no');
    }
    this.batches.push({ partitions, options });
    return partitions.map(({ topic, partition, records }) => {
      const key = `${topic}-${partition}`;
      const base = this.next.get(key) ?? 100;
      this.next.set(key, base + records.length);
      return { topic, partition, baseOffset: base };
    });
  }
}

const record = (topic: string, partition: number, key: string, value: string | null = 'v') => ({
  topic,
  partition,
  key: Buffer.from(key),
  value: value === null ? null : Buffer.from(value),
  timestamp: 1234,
});

describe('KafkaRecordCollector', () => {
  it('batches sends, awaits acknowledgements on flush and tracks the last offset per partition', async () => {
    const sender = new FakeSender();
    const collector = new KafkaRecordCollector({ sender, lingerMs: 10_000 });
    collector.send(record('cl', 0, 'a'));
    collector.send(record('cl', 1, 'b'));
    collector.send(record('cl', 0, 'c', null));
    expect(sender.batches).toHaveLength(0);
    await collector.flush();
    expect(sender.batches).toHaveLength(1);
    expect(sender.batches[0].options?.acks).toBe(-1);
    const messages = sender.batches[0].partitions.flatMap((p) =>
      p.records.map((r) => [p.topic, p.partition, String(r.key), r.value, r.timestamp]),
    );
    expect(messages).toEqual([
      ['cl', 0, 'a', Buffer.from('v'), 1234],
      ['cl', 0, 'c', null, 1234],
      ['cl', 1, 'b', Buffer.from('v'), 1234],
    ]);
    expect(collector.offset('cl', 0)).toBe(101);
    expect(collector.offset('cl', 1)).toBe(100);
    expect(collector.offset('cl', 2)).toBeUndefined();
    expect(collector.offsets()).toEqual(
      expect.arrayContaining([
        { topic: 'cl', partition: 0, offset: 101 },
        { topic: 'cl', partition: 1, offset: 100 },
      ]),
    );
    expect(collector.acknowledgedRecords).toBe(3);
  });

  it('sends a full batch without waiting, one batch in flight at a time', async () => {
    const sender = new FakeSender();
    const collector = new KafkaRecordCollector({ sender, maxBatchRecords: 2, lingerMs: 10_000 });
    for (let i = 0; i < 7; i++) collector.send(record('cl', 0, `k${i}`));
    await collector.flush();
    expect(sender.batches.map((b) => b.partitions[0].records.length)).toEqual([2, 2, 2, 1]);
    expect(sender.maxInFlight).toBe(1);
    expect(collector.offset('cl', 0)).toBe(106);
  });

  it('sends after the linger time, without a flush', async () => {
    const sender = new FakeSender();
    const collector = new KafkaRecordCollector({ sender, lingerMs: 5 });
    collector.send(record('cl', 0, 'a'));
    expect(sender.batches).toHaveLength(0);
    const deadline = Date.now() + 5000;
    while (sender.batches.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(sender.batches).toHaveLength(1);
  });

  it('reports a failed send on the next flush and on every later send', async () => {
    const sender = new FakeSender();
    sender.failNext = true;
    const collector = new KafkaRecordCollector({ sender, lingerMs: 10_000 });
    collector.send(record('cl', 0, 'a'));
    const error = await collector.flush().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecordCollectorSendError);
    expect((error as Error).message).toContain('broker said no');
    expect(() => collector.send(record('cl', 0, 'b'))).toThrow(RecordCollectorSendError);
    expect(collector.offset('cl', 0)).toBeUndefined();
  });

  it('sends a failed batch again while onSendError answers retry, in order, once', async () => {
    const sender = new FakeSender();
    const decisions: number[] = [];
    const collector = new KafkaRecordCollector({
      sender,
      retryBackoffMs: 1,
      onSendError: ({ attempts, partitions }) => {
        decisions.push(attempts, partitions[0].records.length);
        return 'retry';
      },
    });
    sender.failNext = true;
    collector.send(record('out', 0, 'a'));
    collector.send(record('out', 0, 'b'));
    await collector.flush();
    expect(decisions).toEqual([1, 2]);
    expect(sender.batches).toHaveLength(1);
    expect(collector.offset('out', 0)).toBe(101);
    expect(collector.acknowledgedRecords).toBe(2);
  });

  it('drops a failed batch on continue (counted), and fails once retries run past the timeout', async () => {
    const sender = new FakeSender();
    const dropping = new KafkaRecordCollector({ sender, onSendError: () => 'continue' });
    sender.failNext = true;
    dropping.send(record('out', 0, 'a'));
    await dropping.flush();
    expect(dropping.droppedRecords).toBe(1);
    dropping.send(record('out', 0, 'b'));
    await dropping.flush();
    expect(dropping.offset('out', 0)).toBe(100);

    const failing = new FakeSender();
    const retrying = new KafkaRecordCollector({
      sender: { send: () => Promise.reject(new Error('still down')) },
      retryBackoffMs: 5,
      retryTimeoutMs: 20,
      onSendError: () => 'retry',
    });
    retrying.send(record('out', 0, 'a'));
    await expect(retrying.flush()).rejects.toThrow(
      /sending 1 records to out failed \(\d+ attempts\): still down/,
    );
    expect(failing.batches).toEqual([]);
  });
});
