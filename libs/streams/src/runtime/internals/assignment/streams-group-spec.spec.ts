import { Consumed } from '../../../kstream/consumed';
import { Materialized } from '../../../kstream/materialized';
import { Produced } from '../../../kstream/produced';
import { StreamsBuilder } from '../../../kstream/streams-builder';
import { Serdes } from '../../../serde/serdes';
import { streamsTopologyOf } from '../../../client/platformatic/streams-group/streams-group-assignment';
import { streamsGroupSpec } from './streams-group-spec';

describe('streamsGroupSpec', () => {
  // Kafka's WordCount: sub-topology 0 writes the repartition topic sub-topology 1 reads.
  const builder = new StreamsBuilder();
  builder
    .stream('lines', Consumed.with(Serdes.String(), Serdes.String()))
    .flatMapValues((line) => line.split(' '))
    .groupBy((_k, word) => word)
    .count(Materialized.as('counts-store'))
    .toStream()
    .to('counts', Produced.with(Serdes.String(), Serdes.Long()));
  const spec = streamsGroupSpec({
    topology: builder.build(),
    applicationId: 'wc',
    resolveTopic: (t) => (t === 'counts-store-repartition' ? `wc-${t}` : t),
    partitionsFor: (t) => (t === 'wc-counts-store-repartition' ? 3 : 0),
    taskEndOffsetSums: () => Promise.resolve({ '1_0': 5 }),
  });

  it("describes each sub-topology's physical topics, repartition topics and changelogs", async () => {
    expect(spec.subtopologies()).toEqual([
      {
        id: '0',
        sourceTopics: ['lines'],
        repartitionSourceTopics: [],
        repartitionSinkTopics: ['wc-counts-store-repartition'],
        changelogTopics: [],
        copartitionGroups: [],
      },
      {
        id: '1',
        sourceTopics: ['wc-counts-store-repartition'],
        repartitionSourceTopics: [{ name: 'wc-counts-store-repartition', partitions: 3 }],
        repartitionSinkTopics: [],
        changelogTopics: [
          {
            name: 'wc-counts-store-changelog',
            configs: { 'message.timestamp.type': 'CreateTime', 'cleanup.policy': 'compact' },
          },
        ],
        copartitionGroups: [],
      },
    ]);
    expect(await spec.taskEndOffsetSums()).toEqual({ '1_0': 5 });
  });

  it('becomes the heartbeat topology: repartition sources apart, changelogs sized by the broker', () => {
    expect(streamsTopologyOf(spec.subtopologies())).toEqual({
      epoch: 0,
      subtopologies: [
        {
          subtopologyId: '0',
          sourceTopics: ['lines'],
          sourceTopicRegex: [],
          stateChangelogTopics: [],
          repartitionSinkTopics: ['wc-counts-store-repartition'],
          repartitionSourceTopics: [],
          copartitionGroups: [],
        },
        {
          subtopologyId: '1',
          sourceTopics: [],
          sourceTopicRegex: [],
          stateChangelogTopics: [
            {
              name: 'wc-counts-store-changelog',
              partitions: 0,
              replicationFactor: 0,
              topicConfigs: [
                { key: 'message.timestamp.type', value: 'CreateTime' },
                { key: 'cleanup.policy', value: 'compact' },
              ],
            },
          ],
          repartitionSinkTopics: [],
          repartitionSourceTopics: [
            {
              name: 'wc-counts-store-repartition',
              partitions: 3,
              replicationFactor: 0,
              topicConfigs: [],
            },
          ],
          copartitionGroups: [],
        },
      ],
    });
  });
});
