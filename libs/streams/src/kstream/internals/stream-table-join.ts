import type { Joined } from '../joined';
import type { ValueJoiner } from '../functions';
import { KStreamKTableJoinProcessor } from './kstream-ktable-join.processor';
import { NAMES } from './naming';
import { requireSameBuilder, unionTopics, type StreamNode } from './stream-node';
import type { TableNode } from './table-node';

/**
 * Writes a stream-table join (Kafka Streams' `doStreamTableJoin`): repartitions the stream
 * first when its key changed (topic `<joined name, else the stream node's name>-repartition`),
 * records the co-partitioning of the stream's and the table's topics, and adds the join
 * processor connected to the stores the table's value getter reads. Returns the join's node
 * (a stream that needs no repartition).
 *
 * @throws TopologyError when the table comes from another builder.
 */
export function streamTableJoin<K, V, VT, VR>(
  stream: { readonly node: StreamNode<K, V>; readonly repartitionRequired: boolean },
  table: TableNode<K, VT>,
  joiner: ValueJoiner<V, VT | null, VR, K>,
  leftJoin: boolean,
  joined: Joined<K, V, VT> | undefined,
): StreamNode<K, VR> {
  requireSameBuilder(stream.node, table.node, leftJoin ? 'leftJoin' : 'join');
  const { builder } = stream.node;
  let left = stream.node;
  if (stream.repartitionRequired) {
    const keySerde = joined?.keySerde ?? left.keySerde;
    const valueSerde = joined?.valueSerde ?? left.valueSerde;
    const { topic, sourceName } = builder.repartition({
      parentName: left.name,
      prefix: joined?.name ?? left.name,
      keySerde,
      valueSerde,
    });
    left = { builder, name: sourceName, keySerde, valueSerde, sourceTopics: new Set([topic]) };
  }
  const sourceTopics = unionTopics(left.sourceTopics, table.node.sourceTopics);
  builder.copartition(sourceTopics);
  const name = builder.nameOrGenerate(joined?.name, leftJoin ? NAMES.LEFTJOIN : NAMES.JOIN);
  const view = table.supplier.view();
  builder.topology.addProcessor(
    name,
    () => new KStreamKTableJoinProcessor<K, V, VT, VR>(view, joiner, leftJoin),
    left.name,
  );
  builder.topology.connectProcessorAndStateStores(name, ...view.storeNames());
  return {
    builder,
    name,
    keySerde: joined?.keySerde ?? left.keySerde,
    valueSerde: undefined,
    sourceTopics,
  };
}
