import {
  expectedReads,
  memoryChildTimeoutMs,
  memoryRowTimeoutMs,
  readsNote,
} from './memory-systems';

describe('memoryRowTimeoutMs', () => {
  it('keeps --timeout-ms for few stores and grows with many', () => {
    expect(memoryRowTimeoutMs(300_000, 1)).toBe(300_000);
    expect(memoryRowTimeoutMs(300_000, 10)).toBe(300_000);
    expect(memoryRowTimeoutMs(300_000, 50)).toBe(1_250_000);
    expect(memoryRowTimeoutMs(2_000_000, 50)).toBe(2_000_000);
  });

  it("gives the process the fill's timeout, 15 s of reads per store and a minute", () => {
    expect(memoryChildTimeoutMs(300_000, 1)).toBe(375_000);
    expect(memoryChildTimeoutMs(memoryRowTimeoutMs(300_000, 200), 200)).toBe(8_060_000);
  });
});

describe('expectedReads', () => {
  it('expects every entry of every store once by scan and twice by point lookup', () => {
    // 10 stores: 8 key-value stores of 5,000 users and 2 windowed stores of 19,000 windows.
    expect(expectedReads({ stores: 10, users: 5_000, userWindows: 19_000 })).toEqual({
      entries: 78_000,
      pointReads: 156_000,
    });
    expect(expectedReads({ stores: 1, users: 5_000, userWindows: 19_000 })).toEqual({
      entries: 5_000,
      pointReads: 10_000,
    });
  });

  it('expects no entry but the same point reads when the input is dropped', () => {
    expect(
      expectedReads({ stores: 10, users: 5_000, userWindows: 19_000, dropInput: true }),
    ).toEqual({ entries: 0, pointReads: 156_000 });
  });
});

describe('readsNote', () => {
  it("says the stores' kinds, the reads and Java's heap", () => {
    expect(readsNote({ which: 'ours', stores: 10 })).toBe(
      '8 kv + 2 windowed stores; all() + 2 gets per key, checked',
    );
    expect(readsNote({ which: 'ours', stores: 50, dropInput: true })).toBe(
      '40 kv + 10 windowed stores; all() + 2 gets per key, all empty',
    );
    expect(readsNote({ which: 'java', stores: 1, javaMaxHeap: '512m' })).toBe(
      '1 kv + 0 windowed stores; all() + 2 gets per key, checked; -Xmx512m',
    );
    expect(readsNote({ which: 'java', stores: 1 }, 6026.4)).toBe(
      '1 kv + 0 windowed stores; all() + 2 gets per key, checked; default heap (max 6026 MiB)',
    );
    expect(readsNote({ which: 'ours', stores: 1 }, Number(undefined))).toBe(
      '1 kv + 0 windowed stores; all() + 2 gets per key, checked',
    );
  });
});
