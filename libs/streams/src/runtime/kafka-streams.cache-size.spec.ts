import { Serdes } from '../serde/serdes';
import { Stores } from '../state/stores';
import { Topology } from '../processor/topology';
import { KafkaStreams } from './kafka-streams';

/** A topology with one cached key-value store fed by a source. */
function cachedTopology(): Topology {
  const topology = new Topology();
  topology.addSource('source', 'input');
  topology.addProcessor('proc', () => ({ process: () => undefined }), 'source');
  topology.addStateStore(
    Stores.keyValueStoreBuilder(
      Stores.persistentKeyValueStore('counts'),
      Serdes.String(),
      Serdes.String(),
    ).withCachingEnabled(),
    'proc',
  );
  return topology;
}

const config = (statestoreCacheMaxBytes: number) => ({
  applicationId: 'cache-size-spec',
  bootstrapServers: ['127.0.0.1:1'],
  statestoreCacheMaxBytes,
});

describe('KafkaStreams and the record cache size', () => {
  it('runs the stores without their caching layer when the cache has no room, as Kafka Streams rewrites the topology', () => {
    const topology = cachedTopology();
    new KafkaStreams(topology, config(0));
    expect(topology.stores().get('counts')!.cachingEnabled).toBe(false);
  });

  it('keeps the caching layer with a cache', () => {
    const topology = cachedTopology();
    new KafkaStreams(topology, config(1024));
    expect(topology.stores().get('counts')!.cachingEnabled).toBe(true);
  });
});
