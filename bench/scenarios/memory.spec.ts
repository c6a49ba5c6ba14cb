import type { SystemRow } from '../harness/system-row';
import { OUR_ENGINES } from '../harness/kafka-clients';
import {
  boundCheck,
  boundedVariant,
  droppedVariant,
  JAVA_BOUNDED_VARIANT,
  javaComparison,
  withBoundNotes,
} from './memory';

const BOUNDED = 'nest-streams (kafkajs), bounded memory (MALLOC_ARENA_MAX=2)';
const EMPTY = `${BOUNDED}, same input dropped`;
const ON_PLATFORMATIC = boundedVariant(OUR_ENGINES[0]);

const row = (
  variant: string,
  stores: number,
  rssMb: number,
  v8HeapMb?: number,
  peakRssMb?: number,
): SystemRow => ({
  system: `${variant}, ${stores} stores`,
  role: 'ours',
  compareKey: variant,
  result: {
    system: variant,
    rssMb,
    ...(v8HeapMb !== undefined && { v8HeapMb }),
    ...(peakRssMb !== undefined && { peakRssMb }),
  },
});

describe('memory boundCheck', () => {
  it("compares the memory outside V8's heap with the dropped baseline's plus budget and record cache", () => {
    // The second run's RSS is over the RSS-based limit (595 > 517 + 64 + 10) only because V8
    // kept a larger heap: outside it, the stores cost 60 MB, within the 74 MB allowed.
    const rows = [row(BOUNDED, 10, 520, 120), row(EMPTY, 10, 460, 120), row(BOUNDED, 50, 595, 150)];
    rows.push(row(EMPTY, 50, 517, 132));
    expect(boundCheck(rows, BOUNDED, 64, 10)).toEqual({
      '10 stores': {
        rssMb: 520,
        emptyRssMb: 460,
        rssLimitMb: 534,
        rssWithinBound: true,
        outsideHeapMb: 400,
        emptyOutsideHeapMb: 340,
        overBaselineMb: 60,
        limitMb: 414,
        withinBound: true,
      },
      '50 stores': {
        rssMb: 595,
        emptyRssMb: 517,
        rssLimitMb: 591,
        rssWithinBound: false,
        outsideHeapMb: 445,
        emptyOutsideHeapMb: 385,
        overBaselineMb: 60,
        limitMb: 459,
        withinBound: true,
      },
    });
  });

  it('fails the bound when the stores cost more than the budget outside the heap', () => {
    const rows = [row(BOUNDED, 10, 600, 100), row(EMPTY, 10, 500, 120)];
    expect(boundCheck(rows, BOUNDED, 64, 10)['10 stores']).toMatchObject({
      outsideHeapMb: 500,
      limitMb: 454,
      overBaselineMb: 120,
      withinBound: false,
    });
  });

  it('names the variants by client, and checks each client against its own baseline', () => {
    expect(boundedVariant(OUR_ENGINES[1])).toBe(BOUNDED);
    expect(droppedVariant(BOUNDED)).toBe(EMPTY);
    expect(ON_PLATFORMATIC).toBe(
      'nest-streams (@platformatic/kafka), bounded memory (MALLOC_ARENA_MAX=2)',
    );
    const rows = [
      row(BOUNDED, 10, 520, 120),
      row(EMPTY, 10, 460, 120),
      row(ON_PLATFORMATIC, 10, 700, 100),
      row(droppedVariant(ON_PLATFORMATIC), 10, 480, 100),
    ];
    expect(boundCheck(rows, BOUNDED, 64, 10)['10 stores']).toMatchObject({
      overBaselineMb: 60,
      withinBound: true,
    });
    expect(boundCheck(rows, ON_PLATFORMATIC, 64, 10)['10 stores']).toMatchObject({
      emptyRssMb: 480,
      overBaselineMb: 220,
      withinBound: false,
    });
  });

  it('checks nothing for a store count missing its baseline or a heap figure', () => {
    const rows = [row(BOUNDED, 10, 600, 100), row(EMPTY, 10, 500), row(BOUNDED, 50, 600, 100)];
    expect(boundCheck(rows, BOUNDED, 64, 10)).toEqual({});
  });
});

describe('memory javaComparison', () => {
  it("compares ours bounded with Java's bounded row on RSS and peak, per store count", () => {
    const rows = [
      row(BOUNDED, 10, 300, 100, 420),
      row(JAVA_BOUNDED_VARIANT, 10, 350, undefined, 400),
      row(BOUNDED, 50, 500, 100, 600),
      row(JAVA_BOUNDED_VARIANT, 50, 700, undefined, 900),
      row(BOUNDED, 200, 900, 100, 1000),
    ];
    expect(JAVA_BOUNDED_VARIANT).toBe(
      'kafka-streams-java, bounded memory (MALLOC_ARENA_MAX=2, -Xmx512m)',
    );
    expect(javaComparison(rows, BOUNDED, JAVA_BOUNDED_VARIANT)).toEqual({
      '10 stores': {
        rssMb: 300,
        javaRssMb: 350,
        peakRssMb: 420,
        javaPeakRssMb: 400,
        noHigherThanJava: false,
      },
      '50 stores': {
        rssMb: 500,
        javaRssMb: 700,
        peakRssMb: 600,
        javaPeakRssMb: 900,
        noHigherThanJava: true,
      },
    });
  });
});

describe('memory withBoundNotes', () => {
  it("appends the RSS bound to the bounded rows' notes only", () => {
    const rows = [
      { ...row(BOUNDED, 10, 520, 120), note: '8 kv + 2 windowed stores' },
      row(EMPTY, 10, 460, 120),
      row(BOUNDED, 50, 600, 150),
      row(EMPTY, 50, 517, 132),
    ];
    const noted = withBoundNotes(rows, BOUNDED, boundCheck(rows, BOUNDED, 64, 10), 64, 10);
    expect(noted.map((r) => r.note)).toEqual([
      '8 kv + 2 windowed stores; RSS 520 <= fixed 460 + budget 64 + cache 10 = 534: within',
      undefined,
      'RSS 600 <= fixed 517 + budget 64 + cache 10 = 591: over',
      undefined,
    ]);
  });
});
