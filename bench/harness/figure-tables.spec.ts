import { formatMs, formatQueryTable, memoryGrowth, storeCountOf } from './figure-tables';
import type { SystemRow } from './system-row';

const memoryRow = (variant: string, stores: number, rssMb?: number): SystemRow => ({
  system: `${variant}, ${stores} store${stores === 1 ? '' : 's'}`,
  role: 'ours',
  compareKey: variant,
  ...(rssMb !== undefined ? { result: { system: variant, rssMb } } : { failure: 'boom' }),
});

describe('storeCountOf', () => {
  it('reads the store count at the end of a memory row label', () => {
    expect(storeCountOf({ system: 'nest-streams, per-store caps, 1 store' })).toBe(1);
    expect(storeCountOf({ system: 'kafka-streams-java, bounded memory, 50 stores' })).toBe(50);
    expect(storeCountOf({ system: 'nest-streams: store.get (in-process)' })).toBe(undefined);
  });
});

describe('memoryGrowth', () => {
  const rows = [
    memoryRow('a', 1, 100),
    memoryRow('a', 10, 200),
    memoryRow('a', 50, 230),
    memoryRow('b', 10, 400),
    memoryRow('b', 50),
  ];

  it('compares with the next smaller store count of the same variant', () => {
    expect(memoryGrowth(rows[2], rows)).toEqual({ fromStores: 10, percent: 15 });
    expect(memoryGrowth(rows[1], rows)).toEqual({ fromStores: 1, percent: 100 });
  });

  it('gives nothing for the smallest count, a failed row, or another variant only', () => {
    expect(memoryGrowth(rows[0], rows)).toBe(undefined);
    expect(memoryGrowth(rows[4], rows)).toBe(undefined);
    expect(memoryGrowth(rows[3], rows)).toBe(undefined);
  });
});

describe('formatMs', () => {
  it('keeps three significant digits without exponents', () => {
    expect(formatMs(0.0000123)).toBe('0.0000123');
    expect(formatMs(0.03274)).toBe('0.0327');
    expect(formatMs(3.3456)).toBe('3.35');
    expect(formatMs(63.24)).toBe('63.2');
    expect(formatMs(224.4)).toBe('224');
  });
});

describe('formatQueryTable', () => {
  it('gives ratios to the Java row of the same kind, and none to Java rows or failures', () => {
    const rows: SystemRow[] = [
      {
        system: 'ours get',
        role: 'ours',
        compareKey: 'get',
        result: { system: 'ours get', opsPerSec: 5000, p50Ms: 0.02, p99Ms: 0.3 },
        loadAverage: [1.5, 2.25],
      },
      {
        system: 'java get',
        role: 'java',
        compareKey: 'get',
        result: { system: 'java get', opsPerSec: 10000, p50Ms: 0.01, p99Ms: 0.1 },
      },
      { system: 'ours range', role: 'ours', compareKey: 'range', failure: 'wrong\nmore' },
    ];
    const lines = formatQueryTable(rows).split('\n');
    expect(lines).toHaveLength(5);
    const cells = (line: string): string[] =>
      line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
    expect(cells(lines[2])).toEqual([
      'ours get',
      '5,000',
      '0.02',
      '0.3',
      '0.50x',
      '3.00x',
      '1.5-2.3',
      '',
    ]);
    expect(cells(lines[3])).toEqual(['java get', '10,000', '0.01', '0.1', '-', '-', '-', '']);
    expect(cells(lines[4])).toEqual(['ours range', '-', '-', '-', '-', '-', '-', 'FAILED: wrong']);
  });
});
