import type {
  FixedKeyProcessor,
  FixedKeyProcessorContext,
} from '../../processor/fixed-key-processor';
import type { FixedKeyRecord } from '../../processor/fixed-key-record';
import type { ProcessorSupplier } from '../../processor/processor';
import { Serdes } from '../../serde/serdes';
import type { KeyValueStore } from '../../state/key-value-store';
import { Stores } from '../../state/stores';
import { Consumed } from '../consumed';
import { Materialized } from '../materialized';
import { Named } from '../named';
import { Produced } from '../produced';
import { StreamsBuilder } from '../streams-builder';
import { dslDriverPerTest } from '../../../test-support/dsl-test-support';

const str = Serdes.String();

/** Sums the amounts per key in store `totals` and forwards the running total. */
class RunningTotal implements FixedKeyProcessor<string, string, string> {
  private context!: FixedKeyProcessorContext<string, string>;
  private totals!: KeyValueStore<string, number>;

  init(context: FixedKeyProcessorContext<string, string>): void {
    this.context = context;
    this.totals = context.getStateStore<KeyValueStore<string, number>>('totals');
  }

  process(record: FixedKeyRecord<string, string>): void {
    const total = (this.totals.get(record.key) ?? 0) + Number(record.value);
    this.totals.put(record.key, total);
    this.context.forward(
      record.withValue(`${record.value}->${total}`).withTimestamp(record.timestamp + 1),
    );
  }
}

describe('KStream.processValues through the TopologyTestDriver', () => {
  const dsl = dslDriverPerTest();

  function topology(named?: Named): StreamsBuilder {
    const builder = new StreamsBuilder();
    builder.addStateStore(
      Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('totals'), str, Serdes.Long()),
    );
    builder
      .stream('in', Consumed.with(str, str))
      .processValues(() => new RunningTotal(), named, 'totals')
      .to('out', Produced.with(str, str));
    return builder;
  }

  it('forwards new values with the key unchanged, reading and writing its store', async () => {
    const driver = await dsl.start(topology());
    await dsl.pipeLines('in', ['a=1@10', 'b=5@11', 'a=2@12']);
    expect(dsl.lines('out')).toEqual(['a=1->1@11', 'b=5->5@12', 'a=2->3@13']);
    expect(driver.getKeyValueStore<string, number>('totals').get('a')).toBe(3);
  });

  it('is named KSTREAM-PROCESSVALUES-<n>, or as Named says without taking an index', () => {
    expect(topology().build().describe()).toContain(
      '    Processor: KSTREAM-PROCESSVALUES-0000000001 (stores: [totals])',
    );
    expect(topology(Named.as('totals-step')).build().describe()).toContain(
      ['    Processor: totals-step (stores: [totals])', '      --> KSTREAM-SINK-0000000001'].join(
        '\n',
      ),
    );
  });

  it('leaves the stream partitioned: no repartition before the next aggregation, unlike process', () => {
    const processValues = new StreamsBuilder();
    processValues
      .stream<string, string>('in')
      .processValues(() => ({ process: () => undefined }))
      .groupByKey()
      .count(Materialized.as('counts'));
    expect(processValues.build().internalTopicDefs().size).toBe(0);
    const process = new StreamsBuilder();
    const identity: ProcessorSupplier<string, string, string, string> = () => ({
      process: () => undefined,
    });
    process
      .stream<string, string>('in')
      .process(identity)
      .groupByKey()
      .count(Materialized.as('counts'));
    expect([...process.build().internalTopicDefs().keys()]).toEqual(['counts-repartition']);
  });
});
