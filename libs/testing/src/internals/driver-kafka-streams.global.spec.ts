import {
  Consumed,
  type KafkaStreams,
  KeyQuery,
  KeyQueryMetadata,
  Materialized,
  QueryableStoreTypes,
  Serdes,
  StoreQueryParameters,
  StreamsBuilder,
} from '@nest-streams/streams';
import { DriverKafkaStreams } from './driver-kafka-streams';

const str = Serdes.String();

/** A global table of regions (and one stream task, so the topology has a sub-topology). */
function topology() {
  const builder = new StreamsBuilder();
  builder.globalTable('regions', Consumed.with(str, str), Materialized.as('regions-global'));
  builder.stream('orders', Consumed.with(str, str)).to('out');
  return builder.build();
}

describe('DriverKafkaStreams with a global store', () => {
  let streams: DriverKafkaStreams;
  beforeEach(async () => {
    streams = new DriverKafkaStreams(
      topology(),
      {
        applicationId: 'driver-global',
        bootstrapServers: ['127.0.0.1:1'],
        applicationServer: 'localhost:8080',
      },
      {},
    );
    expect((streams as KafkaStreams).queryMetadataForKey('regions-global', 'r1', str)).toBe(
      KeyQueryMetadata.NOT_AVAILABLE,
    );
    await streams.start();
    await streams.driver.createInputTopic('regions', str, str).pipeInput('r1', 'north');
  });
  afterEach(() => streams.close());

  it('places its keys here, holds it whole, and answers store() and query() from it', async () => {
    expect(
      (streams as KafkaStreams).queryMetadataForKey('regions-global', 'r1', str).toJSON(),
    ).toEqual({
      activeHost: 'localhost:8080',
      standbyHosts: [],
      partition: -1,
    });
    expect(streams.localCopyOf('regions-global', -1)).toBe('active');
    expect(streams.localMetadata()?.stateStoreNames).toEqual(['regions-global']);
    const view = streams.store(
      StoreQueryParameters.fromNameAndType(
        'regions-global',
        QueryableStoreTypes.keyValueStore<string, string>(),
      ),
    );
    expect(view.get('r1')).toBe('north');
    const answer = await streams.query({
      storeName: 'regions-global',
      query: KeyQuery.withKey('r1'),
      partitions: [-1],
    });
    expect(answer.partitionResults).toEqual([]);
    expect(answer.globalResult).toMatchObject({ partition: -1, success: true, result: 'north' });
  });
});
