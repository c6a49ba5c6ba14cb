import type { KeyValueMapper, ValueJoiner } from '../../functions';
import type { Named } from '../../named';
import { KStreamKTableJoinProcessor } from '../kstream-ktable-join.processor';
import type { KTableValueGetterSupplier } from '../ktable-value-getter';
import { NAMES } from '../naming';
import { requireSameBuilder, type StreamNode } from '../stream-node';

/**
 * Writes a stream-global table join (Kafka Streams' `KStreamImpl.globalTableJoin`): one
 * processor, `KSTREAM-LEFTJOIN-<n>` for inner and left joins alike (as Kafka names both), or the
 * `Named` name, reading the global store with the key `keySelector` computes. No repartition and
 * no co-partitioning: every instance holds the whole table.
 *
 * @throws TopologyError when the table comes from another builder, or for a taken name.
 */
export function streamGlobalTableJoin<K, V, KG, VG, VR>(
  stream: StreamNode<K, V>,
  table: { readonly node: StreamNode<KG, VG>; readonly rows: KTableValueGetterSupplier<KG, VG> },
  keySelector: KeyValueMapper<K, V, KG>,
  joiner: ValueJoiner<V, VG | null, VR, K>,
  named: Named | undefined,
  leftJoin: boolean,
): StreamNode<K, VR> {
  requireSameBuilder(stream, table.node, leftJoin ? 'leftJoin' : 'join');
  const { builder } = stream;
  const name = builder.nameOrGenerate(named?.name, NAMES.LEFTJOIN);
  builder.topology.addProcessor(
    name,
    () =>
      new KStreamKTableJoinProcessor<K, V, VG, VR, KG>(table.rows, joiner, leftJoin, keySelector),
    stream.name,
  );
  return { ...stream, name, valueSerde: undefined };
}
