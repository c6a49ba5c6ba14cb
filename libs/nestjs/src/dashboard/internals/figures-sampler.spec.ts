import { KafkaStreamsState, type KafkaStreams } from '@nest-streams/streams';
import type { KafkaStreamsHost } from '../../client/internals/kafka-streams.host';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import type { StreamsMetricsService } from '../../metrics/streams-metrics.service';
import {
  difference,
  FiguresSampler,
  type FigureSample,
  type FigureTotals,
} from './figures-sampler';

const totals = (at: number, values: Partial<FigureTotals> = {}): FigureTotals => ({
  at,
  processed: 0,
  commits: 0,
  commitTimeMs: 0,
  cacheHits: 0,
  cacheReads: 0,
  queries: 0,
  unavailable: 0,
  ...values,
});

/** A sample at `at` that knows no figure (first sample, client not created). */
const unknownSample = (at: number): FigureSample => ({
  at,
  processedPerSec: null,
  commitLatencyMs: null,
  cacheHitRatio: null,
  queriesPerSec: null,
  unavailablePerSec: null,
  inputLag: null,
});

describe('live figures of the cluster page', () => {
  it('turns two readings of the totals into rates over their interval', () => {
    const before = totals(10_000, {
      processed: 100,
      commits: 4,
      commitTimeMs: 80,
      cacheHits: 30,
      cacheReads: 40,
      queries: 7,
      unavailable: 1,
    });
    const now = totals(15_000, {
      processed: 600,
      commits: 6,
      commitTimeMs: 130,
      cacheHits: 75,
      cacheReads: 100,
      queries: 17,
      unavailable: 3,
    });
    const lag = [{ topic: 'in', partition: 0, lag: 12 }];
    expect(difference(before, now, lag)).toEqual({
      at: 15_000,
      processedPerSec: 100,
      commitLatencyMs: 25,
      cacheHitRatio: 0.75,
      queriesPerSec: 2,
      unavailablePerSec: 0.4,
      inputLag: lag,
    });
  });

  it('says nothing it cannot know: first sample, no commit, no read, counters gone down', () => {
    expect(difference(undefined, totals(1000, { processed: 5 }), null)).toEqual(
      unknownSample(1000),
    );
    // Tasks moved away: the summed counters went down, so this interval's rate is unknown.
    const moved = difference(
      totals(0, { processed: 500, commits: 3 }),
      totals(1000, { processed: 200, commits: 3 }),
      [],
    );
    expect(moved).toMatchObject({
      processedPerSec: null,
      commitLatencyMs: null,
      cacheHitRatio: null,
      queriesPerSec: 0,
    });
  });

  it('samples the client, its stores, its input lag and the routing totals, keeping the last historyMs', async () => {
    const settings = new StreamsModuleSettings({
      streams: { applicationId: 'sampler-spec', bootstrapServers: ['127.0.0.1:1'] },
      dashboard: { sampleIntervalMs: 1000, historyMs: 2000 },
    });
    let processed = 0;
    let lagAnswer: () => Promise<
      { topic: string; partition: number; position: number; endOffset: number; lag: number }[]
    > = async () => [{ topic: 'in', partition: 1, position: 5, endOffset: 9, lag: 4 }];
    const streams = {
      state: KafkaStreamsState.RUNNING,
      metrics: () => ({ processed, commits: processed / 10, commitTimeMs: processed / 5 }),
      storeMetrics: () => [
        { store: 'a', cache: { hits: processed / 2, misses: processed / 2 } },
        { store: 'b' },
      ],
      inputLags: () => lagAnswer(),
    } as unknown as KafkaStreams;
    const host = { created: true, streams } as unknown as KafkaStreamsHost;
    let queries = 0;
    const metrics = {
      routingTotals: () => ({
        outcomes: { local: queries, forwarded: 0, standby: 0, unavailable: 0 },
        unavailable: 0,
      }),
    } as unknown as StreamsMetricsService;
    const sampler = new FiguresSampler(settings, host, metrics);
    await sampler.sample(1000);
    processed = 300;
    queries = 4;
    await sampler.sample(3000);
    lagAnswer = () => Promise.reject(new Error('broker down'));
    await sampler.sample(4000);
    const samples = sampler.samples();
    // The first sample is older than historyMs (2000 ms before 4000): dropped.
    expect(samples.map((s) => s.at)).toEqual([3000, 4000]);
    expect(samples[0]).toEqual({
      at: 3000,
      processedPerSec: 150,
      commitLatencyMs: 2,
      cacheHitRatio: 0.5,
      queriesPerSec: 2,
      unavailablePerSec: 0,
      inputLag: [{ topic: 'in', partition: 1, lag: 4 }],
    });
    expect(samples[1].inputLag).toBeNull();
    expect(samples[1].processedPerSec).toBe(0);
  });

  it('samples nothing of a client not created yet, and never throws', async () => {
    const settings = new StreamsModuleSettings({
      streams: { applicationId: 'sampler-spec', bootstrapServers: ['127.0.0.1:1'] },
    });
    const host = { created: false } as unknown as KafkaStreamsHost;
    const metrics = {
      routingTotals: () => ({
        outcomes: { local: 0, forwarded: 0, standby: 0, unavailable: 0 },
        unavailable: 0,
      }),
    } as unknown as StreamsMetricsService;
    const sampler = new FiguresSampler(settings, host, metrics);
    await sampler.sample(1000);
    expect(sampler.samples()).toEqual([unknownSample(1000)]);
    // With the page off, bootstrap starts no timer.
    sampler.onApplicationBootstrap();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sampler.samples()).toHaveLength(1);
  });
});
