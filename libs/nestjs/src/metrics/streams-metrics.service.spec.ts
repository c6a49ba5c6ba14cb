import { KafkaStreamsState, type KafkaStreams } from '@nest-streams/streams';
import { StreamsStateTracker } from '../health/internals/streams-state.tracker';
import { StreamsModuleSettings } from '../settings/internals/streams-module.settings';
import { StreamsMetricsService } from './streams-metrics.service';

describe('StreamsMetricsService: skipped records', () => {
  it('exports the records each exception handler skipped, and the dead letters', async () => {
    const settings = new StreamsModuleSettings({
      streams: { applicationId: 'metrics-spec', bootstrapServers: ['127.0.0.1:1'] },
    });
    const service = new StreamsMetricsService(settings, new StreamsStateTracker());
    service.attach({
      state: KafkaStreamsState.RUNNING,
      metrics: () => ({
        processed: 1000,
        produced: 0,
        skippedDeserialization: 2,
        skippedInvalidTimestamp: 1,
        skippedProduction: 4,
        skippedProcessing: 3,
        deadLettered: 5,
        droppedRecords: 0,
        commits: 0,
        commitTimeMs: 0,
      }),
      activeTaskMetadata: () => [],
      storeMetrics: () => [],
    } as unknown as KafkaStreams);
    const scrape = await service.registry.metrics();
    for (const line of [
      'kafka_streams_skipped_deserialization_records 2',
      'kafka_streams_skipped_invalid_timestamp_records 1',
      'kafka_streams_skipped_processing_records 3',
      'kafka_streams_skipped_production_records 4',
      'kafka_streams_dead_lettered_records 5',
    ]) {
      expect(scrape.split('\n')).toContain(line);
    }
  });
});
