import { TopologyError } from '../../../errors/topology.error';
import type { Windowed } from '../../../windowing/windowed';
import type { Suppressed } from '../../suppressed';
import { bindingDefaultSerdes, serdeOrDefault, type DefaultSerde } from '../default-serde';
import { NAMES } from '../naming';
import type { TableNode } from '../table-node';
import { ChangeBufferBuilder } from './change-buffer-builder';
import { KTableSuppressSupplier, type SuppressionSpec } from './ktable-suppress.processor';

/**
 * Writes `KTable.suppress` (Kafka Streams' `KTableImpl.suppress`): the processor
 * `KTABLE-SUPPRESS-<index>` (or the `Suppressed` name) and its buffer
 * `KTABLE-SUPPRESS-STATE-STORE-<index>` (or `<name>-store`), with the table's serdes (else
 * the defaults). `untilWindowCloses` waits the windows' grace past their end; `untilTimeLimit`
 * its time past each key's first buffered update. The result is not queryable.
 *
 * @throws TopologyError for `untilWindowCloses` on a table that is not windowed.
 */
export function suppressTable<K, V>(
  table: TableNode<K, V>,
  suppressed: Suppressed<K>,
): TableNode<K, V> {
  const { builder } = table.node;
  const name = suppressed.name ?? builder.newProcessorName(NAMES.KTABLE_SUPPRESS);
  const storeName =
    suppressed.name !== undefined
      ? `${suppressed.name}-store`
      : builder.newStoreName(NAMES.KTABLE_SUPPRESS);
  const finalResults = suppressed.kind === 'window-close';
  if (finalResults && table.windowGraceMs === undefined) {
    throw new TopologyError(
      `Suppressed.untilWindowCloses needs a windowed KTable (a windowed aggregation), but '${table.node.name}' is not windowed: use Suppressed.untilTimeLimit`,
    );
  }
  const { bufferConfig } = suppressed;
  const spec: SuppressionSpec<K> = {
    name,
    storeName,
    suppressDurationMs: finalResults ? table.windowGraceMs! : suppressed.timeToWaitForMoreEventsMs,
    bufferTime: finalResults
      ? (key) => (key as unknown as Windowed<unknown>).window.end
      : (_key, timestamp) => timestamp,
    maxRecords: bufferConfig.maxRecordCount,
    maxBytes: bufferConfig.maxByteCount,
    bufferFullStrategy: bufferConfig.bufferFullStrategy,
    safeToDropTombstones: finalResults,
  };
  const pending: DefaultSerde<unknown>[] = [];
  const store = new ChangeBufferBuilder<K, V>(
    storeName,
    serdeOrDefault(table.node.keySerde, 'key', storeName, pending),
    serdeOrDefault(table.node.valueSerde, 'value', storeName, pending),
  );
  if (bufferConfig.loggingEnabled) store.withLoggingEnabled(bufferConfig.logConfig);
  else store.withLoggingDisabled();
  const supplier = new KTableSuppressSupplier<K, V>(table.supplier, spec);
  builder.topology.addProcessor(
    name,
    bindingDefaultSerdes(supplier.processorSupplier(), pending),
    table.node.name,
  );
  builder.topology.addStateStore(store, name);
  return {
    node: { ...table.node, name },
    supplier,
    queryableStoreName: undefined,
    windowGraceMs: table.windowGraceMs,
  };
}
