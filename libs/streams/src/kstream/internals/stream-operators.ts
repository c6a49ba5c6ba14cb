import type { Produced } from '../produced';
import type { Repartitioned } from '../repartitioned';
import type { Named } from '../named';
import { NAMES } from './naming';
import { PassThroughProcessor } from './pass-through.processor';
import { requireSameBuilder, unionTopics, type StreamNode } from './stream-node';

/**
 * Writes `KStream.merge` (`KSTREAM-MERGE-<n>` or the `Named` name): a pass-through fed by both
 * streams, reading both streams' topics.
 *
 * @throws TopologyError when the streams come from two builders, or for a taken name.
 */
export function mergeStreams<K, V>(
  a: StreamNode<K, V>,
  b: StreamNode<K, V>,
  named: Named | undefined,
): StreamNode<K, V> {
  requireSameBuilder(a, b, 'merge');
  const name = a.builder.nameOrGenerate(named?.name, NAMES.MERGE);
  a.builder.topology.addProcessor(name, () => new PassThroughProcessor<K, V>(), a.name, b.name);
  return { ...a, name, sourceTopics: unionTopics(a.sourceTopics, b.sourceTopics) };
}

/**
 * Writes `KStream.to` (`KSTREAM-SINK-<n>` or `Produced`'s name): serdes from `produced`, else
 * the stream's, else the application defaults.
 *
 * @throws TopologyError for a taken name.
 */
export function streamToTopic<K, V>(
  node: StreamNode<K, V>,
  topic: string,
  produced: Produced<K, V> | undefined,
): void {
  const name = node.builder.nameOrGenerate(produced?.processorName, NAMES.SINK);
  node.builder.topology.addSink<K, V>(
    name,
    topic,
    {
      keySerde: produced?.keySerde ?? node.keySerde,
      valueSerde: produced?.valueSerde ?? node.valueSerde,
      partitioner: produced?.partitioner,
    },
    node.name,
  );
}

/**
 * Writes `KStream.repartition`: through `<Repartitioned name, else KSTREAM-REPARTITION-<n>>`
 * `-repartition`, with `repartitioned`'s serdes, partitioner and partition count. Returns the
 * node of the source reading it back.
 *
 * @throws TopologyError when the repartition name is taken.
 */
export function repartitionStream<K, V>(
  node: StreamNode<K, V>,
  repartitioned: Repartitioned<K, V> | undefined,
): StreamNode<K, V> {
  const { builder } = node;
  const prefix = repartitioned?.name ?? builder.newProcessorName(NAMES.REPARTITION);
  const keySerde = repartitioned?.keySerde ?? node.keySerde;
  const valueSerde = repartitioned?.valueSerde ?? node.valueSerde;
  const { topic, sourceName } = builder.repartition({
    parentName: node.name,
    prefix,
    keySerde,
    valueSerde,
    partitioner: repartitioned?.partitioner,
    numPartitions: repartitioned?.numberOfPartitions,
  });
  return { builder, name: sourceName, keySerde, valueSerde, sourceTopics: new Set([topic]) };
}
