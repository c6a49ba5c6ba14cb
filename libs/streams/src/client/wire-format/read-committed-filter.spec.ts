import { committedRecords, type TransactionalRecord } from './read-committed-filter';

/** A data record of `producer` at `offset` (transactional unless said otherwise). */
function data(offset: number, producer: string, inTransaction = true): TransactionalRecord {
  return {
    offset: String(offset),
    producerId: producer,
    inTransaction,
    isControlRecord: false,
    isAbortMarker: false,
  };
}

function marker(offset: number, producer: string, abort: boolean): TransactionalRecord {
  return {
    offset: String(offset),
    producerId: producer,
    inTransaction: true,
    isControlRecord: true,
    isAbortMarker: abort,
  };
}

const offsets = (records: readonly TransactionalRecord[]): number[] =>
  records.map((r) => Number(r.offset));

describe('committedRecords', () => {
  it('drops control records and keeps everything else when no transaction was aborted', () => {
    const records = [data(0, 'p1'), data(1, 'p1'), marker(2, 'p1', false), data(3, 'p9', false)];
    expect(offsets(committedRecords(records, []))).toEqual([0, 1, 3]);
    expect(offsets(committedRecords(records, undefined))).toEqual([0, 1, 3]);
  });

  it("drops an aborted transaction's records up to its producer's abort marker, keeping the others' records in between", () => {
    // p1 aborts [0, 2, 4] (marker 5); p2 commits [1, 3] (marker 6); p1 commits [7] (marker 8).
    const records = [
      data(0, 'p1'),
      data(1, 'p2'),
      data(2, 'p1'),
      data(3, 'p2'),
      data(4, 'p1'),
      marker(5, 'p1', true),
      marker(6, 'p2', false),
      data(7, 'p1'),
      marker(8, 'p1', false),
    ];
    expect(offsets(committedRecords(records, [{ producerId: 'p1', firstOffset: '0' }]))).toEqual([
      1, 3, 7,
    ]);
  });

  it('takes effect for every aborted transaction already begun when a fetch starts past their first offsets', () => {
    // p1 aborted from 10, p2 aborted from 11; this fetch starts at 12. kafkajs' own filter
    // activates one aborted transaction per record (p1's at record 12) and returns p2's 12.
    const records = [
      data(12, 'p2'),
      data(13, 'p1'),
      data(14, 'p3'),
      marker(15, 'p1', true),
      marker(16, 'p2', true),
      data(17, 'p2'),
      marker(18, 'p2', false),
    ];
    const aborted = [
      { producerId: 'p1', firstOffset: '10' },
      { producerId: 'p2', firstOffset: '11' },
    ];
    expect(offsets(committedRecords(records, aborted))).toEqual([14, 17]);
  });

  it('sorts the aborted transactions the broker lists by first offset', () => {
    const records = [data(20, 'p1'), data(21, 'p2'), marker(22, 'p2', true), data(23, 'p1')];
    const aborted = [
      { producerId: 'p2', firstOffset: 21 },
      { producerId: 'p1', firstOffset: 23 },
    ];
    expect(offsets(committedRecords(records, aborted))).toEqual([20]);
  });

  it('never drops a non-transactional record of a producer whose transaction is aborted', () => {
    const records = [data(0, 'p1'), data(1, 'p1', false), marker(2, 'p1', true)];
    expect(offsets(committedRecords(records, [{ producerId: 'p1', firstOffset: '0' }]))).toEqual([
      1,
    ]);
  });

  it('treats a second aborted transaction of the same producer after its first abort marker', () => {
    const records = [
      data(0, 'p1'),
      marker(1, 'p1', true),
      data(2, 'p1'),
      marker(3, 'p1', false),
      data(4, 'p1'),
      marker(5, 'p1', true),
    ];
    const aborted = [
      { producerId: 'p1', firstOffset: '0' },
      { producerId: 'p1', firstOffset: '4' },
    ];
    expect(offsets(committedRecords(records, aborted))).toEqual([2]);
  });
});
