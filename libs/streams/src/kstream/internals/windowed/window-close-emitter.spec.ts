import { Serdes } from '../../../serde/serdes';
import { Consumed } from '../../consumed';
import { Materialized } from '../../materialized';
import { Produced } from '../../produced';
import { StreamsBuilder } from '../../streams-builder';
import { EmitStrategy } from '../../windows/emit-strategy';
import { SessionWindows } from '../../windows/session-windows';
import { SlidingWindows } from '../../windows/sliding-windows';
import { TimeWindows } from '../../windows/time-windows';
import type { Windowed } from '../../../windowing/windowed';
import type { KTable } from '../../ktable';
import {
  dslDriverPerTest,
  windowLabel,
  WINDOWED_INPUT,
} from '../../../../test-support/dsl-test-support';

const str = Serdes.String();

/** Expected records are Kafka Streams 4.4's TopologyTestDriver's, after each input record. */
describe('EmitStrategy.onWindowClose through the TopologyTestDriver', () => {
  const dsl = dslDriverPerTest();

  function output<V>(table: KTable<Windowed<string>, V>): void {
    table
      .toStream()
      .map((w, v) => ({ key: windowLabel(w), value: String(v) }))
      .to('out', Produced.with(str, str));
  }

  /** Counts per key and window of `windows` (retention: size plus grace), on close. */
  function countsOnClose(windows: TimeWindows | SessionWindows): StreamsBuilder {
    const builder = new StreamsBuilder();
    const grouped = builder.stream('in', Consumed.with(str, str)).groupByKey();
    const windowed =
      windows instanceof SessionWindows ? grouped.windowedBy(windows) : grouped.windowedBy(windows);
    output(windowed.emitStrategy(EmitStrategy.onWindowClose()).count());
    return builder;
  }

  it('emits each tumbling window once, when it closes, and caches nothing', async () => {
    const builder = new StreamsBuilder();
    const grouped = builder.stream('in', Consumed.with(str, str)).groupByKey();
    output(
      grouped
        .windowedBy(TimeWindows.ofSizeAndGrace(10, 5))
        .emitStrategy(EmitStrategy.onWindowClose())
        .count(Materialized.as<string, number>('counts')),
    );
    const driver = await dsl.start(builder);
    expect(await dsl.linesPerRecord('in', WINDOWED_INPUT)).toEqual([
      [],
      [],
      [],
      [],
      [],
      ['j@0/10=1@8', 'k@0/10=3@9'],
      [],
      [],
      // Closed, but past retention (15) once the window at 40 is written: Kafka Streams'
      // time-ordered store no longer returns them, so they are never emitted.
      [],
    ]);
    expect(driver.getWindowStore<string, number>('counts').fetch('j', 40)).toBe(1);
    expect(driver.metrics().droppedRecords).toBe(1);
  });

  it('emits each session once, when it closes', async () => {
    await dsl.start(countsOnClose(SessionWindows.ofInactivityGapAndGrace(5, 2)));
    expect(await dsl.linesPerRecord('in', WINDOWED_INPUT)).toEqual([
      [],
      [],
      [],
      [],
      [],
      ['k@1/5=2@5', 'j@8/8=1@8'],
      ['k@9/12=2@12'],
      [],
      ['j@16/16=1@16', 'k@20/20=1@20'],
    ]);
  });

  it('emits no window past retention (as the time-ordered store reads)', async () => {
    await dsl.start(countsOnClose(TimeWindows.ofSizeWithNoGrace(10)));
    // Retention 10: once a window starts at 20, the one at 0 is gone before it was emitted.
    expect(await dsl.linesPerRecord('in', ['k=a@1', 'k=b@25', 'k=c@31'])).toEqual([
      [],
      [],
      ['k@20/30=1@25'],
    ]);
  });

  it('emits the window starting exactly at stream time - retention', async () => {
    await dsl.start(countsOnClose(TimeWindows.ofSizeWithNoGrace(10)));
    // Retention 10: after the window at 10 is written, the one at 0 sits at the bound.
    expect(await dsl.linesPerRecord('in', ['j=a@5', 'j=b@10'])).toEqual([[], ['j@0/10=1@5']]);
  });

  it('emits the sessions closing together by end, then start, then key', async () => {
    await dsl.start(countsOnClose(SessionWindows.ofInactivityGapWithNoGrace(5)));
    await dsl.pipeLines('in', ['b=x@1', 'b=y@5', 'a=z@5', 'c=w@11']);
    expect(dsl.lines('out')).toEqual(['b@1/5=2@5', 'a@5/5=1@5']);
  });

  it('emits each sliding window once, when it closes', async () => {
    const builder = new StreamsBuilder();
    output(
      builder
        .stream('in', Consumed.with(str, str))
        .groupByKey()
        .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 5))
        .emitStrategy(EmitStrategy.onWindowClose())
        .aggregate(
          () => '0',
          (_k, v, agg) => `${agg}+${v}`,
          Materialized.as<string, string>('store').withValueSerde(str),
        ),
    );
    await dsl.start(builder);
    const ts = [10, 10, 14, 15, 20, 22, 30];
    expect(
      await dsl.linesPerRecord(
        'in',
        ts.map((t, i) => `A=${i + 1}@${t}`),
      ),
    ).toEqual([
      [],
      [],
      [],
      [],
      ['A@0/10=0+1+2@10', 'A@4/14=0+1+2+3@14'],
      ['A@5/15=0+1+2+3+4@15'],
      ['A@10/20=0+1+2+3+4+5@20', 'A@11/21=0+3+4+5@20', 'A@12/22=0+3+4+5+6@22'],
    ]);
  });

  it('waits the emit interval of wall-clock time between emissions', async () => {
    const driver = await dsl.start(countsOnClose(TimeWindows.ofSizeWithNoGrace(10)), {
      config: {},
      initialWallClockTimeMs: 0,
    });
    // The driver's interval is 0: every record may emit.
    await dsl.pipeLines('in', ['k=a@1', 'k=b@11', 'k=c@21']);
    expect(dsl.lines('out')).toEqual(['k@0/10=1@1', 'k@10/20=1@11']);
    expect(EmitStrategy.onWindowClose().type()).toBe('ON_WINDOW_CLOSE');
    expect(EmitStrategy.onWindowUpdate().type()).toBe('ON_WINDOW_UPDATE');
    await driver.close();
  });
});
