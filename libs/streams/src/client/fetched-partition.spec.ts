import { toFetchedPartition } from './fetched-partition';

const record = (offset: number) => ({
  key: Buffer.from(`k${offset}`),
  value: Buffer.from(`v${offset}`),
  timestamp: 1_700_000_000_000 + offset,
  offset,
});

describe('toFetchedPartition', () => {
  it('leaves out the records of a batch before the fetch offset (a fetch starting inside a batch) and moves past the whole batches', () => {
    const fetched = toFetchedPartition(
      { topic: 'changelog', partition: 2, offset: 11 },
      {
        records: [record(10), record(11), record(12)],
        batchesEnd: 14,
        highWatermark: '20',
        lastStableOffset: 18,
      },
    );
    expect(fetched).toEqual({
      topic: 'changelog',
      partition: 2,
      fetchOffset: 11,
      records: [record(11), record(12)],
      nextOffset: 14,
      highWatermark: 20,
      lastStableOffset: 18,
    });
  });

  it('stays at the fetch offset when no batch came whole, and never moves back', () => {
    const none = { records: [], highWatermark: 9, lastStableOffset: 9 };
    const at = { topic: 'changelog', partition: 0, offset: 7 };
    expect(toFetchedPartition(at, { ...none, batchesEnd: undefined }).nextOffset).toBe(7);
    expect(toFetchedPartition(at, { ...none, batchesEnd: 5 }).nextOffset).toBe(7);
  });
});
