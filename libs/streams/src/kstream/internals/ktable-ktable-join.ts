import type { ValueJoiner } from '../functions';
import type { Materialized } from '../materialized';
import type { Named } from '../named';
import { bindingDefaultSerdes } from './default-serde';
import { KTableKTableJoinSupplier, type TableJoinKind } from './ktable-ktable-join.supplier';
import { NAMES } from './naming';
import { storeNameFor, timestampedKeyValueStore } from './store-materializer';
import { requireSameBuilder, unionTopics } from './stream-node';
import type { TableNode } from './table-node';

/**
 * Writes a table-table join on the key (Kafka Streams' `KTableImpl.doJoin`): the merge
 * `KTABLE-MERGE-<n>` (or the `Named` name), then `KTABLE-JOINTHIS-<n>` and
 * `KTABLE-JOINOTHER-<n>` (or `<name>-join-this` and `<name>-join-other`) reading the other
 * table's stores, the merge materialized when `materialized` is given. Records that both
 * tables' topics must be co-partitioned. Returns the result table's node.
 *
 * @throws TopologyError when the tables come from two builders, or for a taken name.
 */
export function tableTableJoin<K, V1, V2, VR>(
  left: TableNode<K, V1>,
  right: TableNode<K, V2>,
  joiner: ValueJoiner<V1 | null, V2 | null, VR, K>,
  kind: TableJoinKind,
  named: Named | undefined,
  materialized: Materialized<K, VR> | undefined,
): TableNode<K, VR> {
  requireSameBuilder(left.node, right.node, kind === 'inner' ? 'join' : `${kind}Join`);
  const { builder } = left.node;
  const store = materialized ? storeNameFor(builder, materialized, NAMES.KTABLE_MERGE) : undefined;
  const mergeName = builder.nameOrGenerate(named?.name, NAMES.KTABLE_MERGE);
  const sourceTopics = unionTopics(left.node.sourceTopics, right.node.sourceTopics);
  builder.copartition(sourceTopics);
  const join = new KTableKTableJoinSupplier<K, V1, V2, VR>(
    left.supplier,
    right.supplier,
    joiner,
    kind,
    store?.storeName,
  );
  const thisName = builder.suffixedOrGenerate(named?.name, '-join-this', NAMES.KTABLE_JOINTHIS);
  const otherName = builder.suffixedOrGenerate(named?.name, '-join-other', NAMES.KTABLE_JOINOTHER);
  const { topology } = builder;
  topology.addProcessor(thisName, join.leftProcessorSupplier(), left.node.name);
  topology.addProcessor(otherName, join.rightProcessorSupplier(), right.node.name);
  topology.connectProcessorAndStateStores(thisName, ...right.supplier.view().storeNames());
  topology.connectProcessorAndStateStores(otherName, ...left.supplier.view().storeNames());
  const keySerde = materialized?.keySerde ?? left.node.keySerde;
  const valueSerde = materialized?.valueSerde;
  let queryable: string | undefined;
  if (store !== undefined) {
    const built = timestampedKeyValueStore(store.storeName, materialized, keySerde, valueSerde);
    const merger = bindingDefaultSerdes(join.mergerSupplier(), built.defaultSerdes);
    topology.addProcessor(mergeName, merger, thisName, otherName);
    topology.addStateStore(built.builder, mergeName);
    queryable = built.queryableStoreName;
  } else {
    topology.addProcessor(mergeName, join.mergerSupplier(), thisName, otherName);
  }
  const windowGraceMs = left.windowGraceMs === right.windowGraceMs ? left.windowGraceMs : undefined;
  return {
    node: { builder, name: mergeName, keySerde, valueSerde, sourceTopics },
    supplier: join,
    queryableStoreName: queryable,
    windowGraceMs,
  };
}
