import type { InMemoryRecordCollector } from '../../../processor/internals/in-memory-record-collector';
import { Serdes } from '../../../serde/serdes';
import { SerializationError } from '../../../serde/serialization.error';
import { testStoreContext } from '../../../../test-support/store-test-support';
import { change } from '../change';
import { TimeOrderedChangeBuffer, type Eviction } from './time-ordered-change-buffer';

const str = Serdes.String();
const context = (timestamp: number) => ({
  timestamp,
  offset: timestamp,
  topic: 'in',
  partition: 0,
  headers: {},
});

async function opened(logging = true) {
  const storeContext = testStoreContext();
  const buffer = new TimeOrderedChangeBuffer('buf', str, str, logging);
  await buffer.init(storeContext);
  return { buffer, storeContext, registration: storeContext.registrations[0] };
}

function drain(buffer: TimeOrderedChangeBuffer<string, string>): string[] {
  const out: string[] = [];
  buffer.evictWhile(
    () => true,
    (e: Eviction<string, string>) =>
      out.push(`${e.key}=${e.value.newValue}/${e.value.oldValue}@${e.context.timestamp}`),
  );
  return out;
}

describe('TimeOrderedChangeBuffer', () => {
  it('keeps a key at the time of its first update, with its latest value and prior value', async () => {
    const { buffer } = await opened();
    buffer.put(5, 'b', change('b1', null), context(5));
    buffer.put(3, 'a', change('a1', 'a0'), context(3));
    buffer.put(9, 'a', change('a2', 'a1'), context(9));
    expect(buffer.minTimestamp).toBe(3);
    expect(buffer.numRecords).toBe(2);
    expect(buffer.priorValueForBuffered('a')).toEqual({
      buffered: true,
      value: { value: 'a0', timestamp: 9 },
    });
    expect(buffer.priorValueForBuffered('b')).toEqual({ buffered: true, value: undefined });
    expect(buffer.priorValueForBuffered('c')).toEqual({ buffered: false });
    expect(drain(buffer)).toEqual(['a=a2/a1@9', 'b=b1/null@5']);
    expect([buffer.numRecords, buffer.bufferSize, buffer.minTimestamp]).toEqual([
      0,
      0,
      Number.MAX_SAFE_INTEGER,
    ]);
  });

  it('registers for a full restore and rebuilds itself from what it logged', async () => {
    const { buffer, storeContext, registration } = await opened();
    expect(registration.changelog).toEqual({ topic: 'app-buf-changelog', partition: 0 });
    expect(registration.persistent).toBe(false);
    buffer.put(3, 'a', change('a1', 'a0'), context(3));
    buffer.put(4, 'b', change('b1', null), context(4));
    buffer.put(7, 'a', change('a2', 'a1'), context(7));
    await buffer.flush();
    buffer.evictWhile(
      () => buffer.minTimestamp <= 3,
      () => undefined,
    );
    await buffer.flush();
    const logged = (storeContext.recordCollector as InMemoryRecordCollector).records;
    expect(
      logged.map((r) => `${r.key!.toString()}:${r.value === null ? 'tombstone' : 'value'}`),
    ).toEqual(['a:value', 'b:value', 'a:tombstone']);
    const size = buffer.bufferSize;
    const restored = await opened();
    await restored.registration.restoreBatch(
      logged.map((r) => ({ key: r.key!, value: r.value, timestamp: r.timestamp })),
    );
    expect([restored.buffer.numRecords, restored.buffer.bufferSize]).toEqual([1, size]);
    expect(drain(restored.buffer)).toEqual(['b=b1/null@4']);
  });

  it('logs nothing without logging, and refuses changelog records of another format', async () => {
    const { buffer, storeContext, registration } = await opened(false);
    buffer.put(1, 'a', change('a1', null), context(1));
    await buffer.flush();
    expect((storeContext.recordCollector as InMemoryRecordCollector).records).toEqual([]);
    expect(registration.changelog).toBeUndefined();
    expect(() =>
      registration.restoreBatch([{ key: Buffer.from('a'), value: Buffer.from('x'), timestamp: 0 }]),
    ).toThrow(new SerializationError('a suppression buffer changelog record is truncated'));
  });
});
