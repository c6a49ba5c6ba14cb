/**
 * What a user is told at start: two instances without application.server get one warning each
 * at their first rebalance naming the option; with it, none.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KafkaStreams, KafkaStreamsState, type StreamsLogger } from '@nest-streams/streams';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { waitFor } from '../support/wait-for';
import { statsTopology } from './stats-topology';
import { streamsClient } from '../support/streams-client';

/** A logger that keeps the warnings. */
function recording(): StreamsLogger & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    warnings,
    error: (m) => void warnings.push(`error: ${m}`),
    warn: (m) => void warnings.push(m),
    info: () => undefined,
    debug: () => undefined,
  };
}

describe('start-up warnings', () => {
  const ctx = new KafkaTestContext();
  const stateDir = mkdtempSync(join(tmpdir(), 'streams-startup-warnings-'));
  afterAll(async () => {
    await ctx.cleanup();
    rmSync(stateDir, { recursive: true, force: true });
  });

  async function pair(applicationServers: (string | undefined)[]) {
    const input = await ctx.createTopic(ctx.topicName('events'), 4);
    const applicationId = `${ctx.applicationId}-${applicationServers.length}-${Date.now()}`;
    const instances = applicationServers.map((applicationServer, i) => {
      const logger = recording();
      const streams = new KafkaStreams(
        statsTopology(input),
        {
          applicationId,
          bootstrapServers: brokers(),
          kafkaClient: streamsClient(),
          stateDir: join(stateDir, `${applicationId}-${i}`),
          applicationServer,
          sessionTimeoutMs: 6000,
          heartbeatIntervalMs: 500,
        },
        { logger },
      );
      return { streams, logger };
    });
    for (const { streams } of instances) await streams.start();
    await waitFor(
      () =>
        instances.every(
          ({ streams }) =>
            streams.state === KafkaStreamsState.RUNNING && streams.localTaskIds().active.length > 0,
        ),
      60_000,
      'both instances RUNNING with tasks',
    );
    return { instances, applicationId };
  }

  it('warns once per instance when several share an application id without application.server', async () => {
    const { instances, applicationId } = await pair([undefined, undefined]);
    try {
      for (const { logger } of instances) {
        expect(logger.warnings.filter((w) => w.includes('application.server'))).toEqual([
          `2 instances share application.id '${applicationId}' but this one has no application.server: interactive queries cannot locate keys held by the other instances; set applicationServer (Kafka Streams' application.server, host:port) on every instance`,
        ]);
      }
    } finally {
      await Promise.all(instances.map(({ streams }) => streams.close()));
    }
  }, 120_000);

  it('says nothing when every instance advertises application.server', async () => {
    const { instances } = await pair(['127.0.0.1:7001', '127.0.0.1:7002']);
    try {
      for (const { logger } of instances) {
        expect(logger.warnings.filter((w) => w.includes('application.server'))).toEqual([]);
      }
    } finally {
      await Promise.all(instances.map(({ streams }) => streams.close()));
    }
  }, 120_000);
});
