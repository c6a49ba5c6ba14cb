/**
 * Start-up against the real broker: a missing source topic fails `app.init()` with the
 * engine's typed MissingSourceTopicError once `task.timeout.ms` passed; with the topic, the module starts the client on
 * bootstrap and closes it cleanly on shutdown.
 */
import { Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  KafkaStreams,
  KafkaStreamsState,
  MissingSourceTopicError,
  Serdes,
} from '@nest-streams/streams';
import { Count, StateStore, StreamsModule } from '@nest-streams/nestjs';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { streamsClient } from '../support/streams-client';

describe('StreamsModule start-up on the real broker', () => {
  const ctx = new KafkaTestContext();
  const dir = mkdtempSync(join(tmpdir(), 'nest-startup-'));
  afterAll(async () => {
    await ctx.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  async function appFor(topic: string) {
    @StateStore('counts', { keySerde: Serdes.String() })
    @Injectable()
    class Counting {
      @Count({ source: topic, store: 'counts', keySerde: Serdes.String() })
      count(): void {}
    }
    const moduleRef = await Test.createTestingModule({
      imports: [
        StreamsModule.forRoot({
          streams: {
            applicationId: ctx.applicationId,
            bootstrapServers: brokers(),
            kafkaClient: streamsClient(),
            stateDir: dir,
            // How long the start waits for a missing source topic to be created.
            taskTimeoutMs: 2_000,
            sessionTimeoutMs: 6000,
            heartbeatIntervalMs: 1000,
          },
          client: { start: 'blocking' },
        }),
      ],
      providers: [Counting],
    }).compile();
    return moduleRef.createNestApplication({ logger: false });
  }

  it('fails start-up with MissingSourceTopicError when the source topic does not exist', async () => {
    const topic = ctx.topicName('missing');
    const app = await appFor(topic);
    const error = await app.init().then(
      () => undefined,
      (e: unknown) => e,
    );
    await app.close().catch(() => undefined);
    expect(error).toBeInstanceOf(MissingSourceTopicError);
    expect((error as MissingSourceTopicError).message).toBe(
      `source topic(s) missing: ${topic} (create them before starting the application)`,
    );
  });

  it('starts on bootstrap and closes cleanly on shutdown', async () => {
    const topic = await ctx.createTopic(ctx.topicName('present'), 2);
    const app = await appFor(topic);
    await app.init();
    const streams = app.get(KafkaStreams);
    const states: string[] = [];
    streams.onStateChange((s) => states.push(s));
    const deadline = Date.now() + 60_000;
    while (streams.state !== KafkaStreamsState.RUNNING && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(streams.state).toBe(KafkaStreamsState.RUNNING);
    await app.close();
    expect(streams.state).toBe(KafkaStreamsState.NOT_RUNNING);
    expect(states.slice(-2)).toEqual([
      KafkaStreamsState.PENDING_SHUTDOWN,
      KafkaStreamsState.NOT_RUNNING,
    ]);
  });
});
