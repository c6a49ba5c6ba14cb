import { Controller, Get, Inject, type LoggerService } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { HealthCheck, HealthCheckService, TerminusModule } from '@nestjs/terminus';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BrokersUnreachableError,
  KafkaStreams,
  KafkaStreamsState,
  type KafkaClientName,
} from '@nest-streams/streams';
import { StreamsHealthIndicator } from './health/streams-health.indicator';
import { StreamsModule } from './streams.module';
import { baseUrl } from '../test-support/http-fixtures';
import { Counting } from '../test-support/stats-module-fixtures';
import type {
  StreamsModuleOptions,
  StreamsStartMode,
} from './settings/streams-module-options.interface';

@Controller('health')
class HealthController {
  constructor(
    @Inject(HealthCheckService) private readonly health: HealthCheckService,
    @Inject(StreamsHealthIndicator) private readonly streams: StreamsHealthIndicator,
  ) {}

  @Get('live')
  @HealthCheck()
  live() {
    return this.health.check([() => this.streams.isLive('streams')]);
  }

  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([() => this.streams.isReady('streams')]);
  }
}

/** Every line Nest's logger received: level, context, message. */
class CapturingLogger implements LoggerService {
  readonly lines: { level: string; context: string; message: string }[] = [];
  log = this.record('log');
  error = this.record('error');
  warn = this.record('warn');
  debug = this.record('debug');
  verbose = this.record('verbose');
  fatal = this.record('fatal');

  has(level: string, context: string, message: string): boolean {
    return this.lines.some(
      (l) => l.level === level && l.context === context && l.message.includes(message),
    );
  }

  private record(level: string) {
    return (message: unknown, ...params: unknown[]) => {
      const context = params.length > 0 ? String(params[params.length - 1]) : '';
      this.lines.push({ level, context, message: String(message) });
    };
  }
}

const UNREACHABLE = '127.0.0.1:1';

describe('StreamsModule start-up with unreachable brokers', () => {
  let stateDir: string;
  beforeEach(() => (stateDir = mkdtempSync(join(tmpdir(), 'nest-streams-startup-spec-'))));
  afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

  async function create(
    start: StreamsStartMode,
    taskTimeoutMs: number,
    exitOnStartFailure = false,
    kafkaClient?: KafkaClientName,
  ) {
    const logger = new CapturingLogger();
    const options: StreamsModuleOptions = {
      streams: {
        applicationId: 'startup-spec',
        bootstrapServers: [UNREACHABLE],
        stateDir,
        taskTimeoutMs,
        // One connection attempt per try: the client's own retries would take ~10 s.
        kafka: { retry: { retries: 0 } },
        ...(kafkaClient && { kafkaClient }),
      },
      client: { start, exitOnStartFailure },
    };
    const moduleRef = await Test.createTestingModule({
      imports: [TerminusModule, StreamsModule.forRoot(options)],
      providers: [Counting],
      controllers: [HealthController],
    }).compile();
    const app = moduleRef.createNestApplication({ logger });
    return { app, logger };
  }

  const until = async (what: () => boolean | Promise<boolean>, ms: number): Promise<void> => {
    const deadline = Date.now() + ms;
    while (!(await what())) {
      if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it.each<[KafkaClientName, string]>([
    ['@platformatic/kafka', 'connection to 127.0.0.1:1 failed'],
    ['kafkajs', '[Connection] Connection error'],
  ])(
    'on %s: serves liveness, and readiness 503 with the reason, while the client tries to connect',
    async (client, clientLine) => {
      const { app, logger } = await create('background', 3_000, false, client);
      const began = Date.now();
      await app.listen(0, '127.0.0.1');
      try {
        // HTTP is up at once: the client is still connecting.
        expect(Date.now() - began).toBeLessThan(2_000);
        expect(app.get(KafkaStreams).state).toBe(KafkaStreamsState.REBALANCING);
        expect((await fetch(`${baseUrl(app)}/health/live`)).status).toBe(200);

        await until(() => app.get(KafkaStreams).startupProblem !== undefined, 5_000);
        const ready = await fetch(`${baseUrl(app)}/health/ready`);
        expect(ready.status).toBe(503);
        const details = ((await ready.json()) as { details: { streams: Record<string, unknown> } })
          .details.streams;
        expect(details).toMatchObject({
          status: 'down',
          state: 'REBALANCING',
          started: false,
          problem: { code: 'BROKERS_UNREACHABLE' },
        });
        expect(String(details.reason)).toMatch(
          /^starting: cannot reach the Kafka brokers 127\.0\.0\.1:1 \(.*ECONNREFUSED.*\): check that they run and that bootstrap\.servers names them as this host reaches them \(retrying until task\.timeout\.ms\)$/,
        );
        expect((await fetch(`${baseUrl(app)}/health/live`)).status).toBe(200);
        expect(
          logger.has('warn', 'KafkaStreams', 'cannot reach the Kafka brokers 127.0.0.1:1'),
        ).toBe(true);

        // task.timeout.ms ran out: ERROR, liveness fails, one error line says why.
        await until(() => app.get(KafkaStreams).state === KafkaStreamsState.ERROR, 10_000);
        expect((await fetch(`${baseUrl(app)}/health/live`)).status).toBe(503);
        expect(
          logger.lines.filter(
            (l) => l.level === 'error' && l.message.startsWith('could not start: '),
          ),
        ).toEqual([
          {
            level: 'error',
            context: 'KafkaStreams',
            message: expect.stringMatching(
              /^could not start: BrokersUnreachableError \[BROKERS_UNREACHABLE\]: cannot reach the Kafka brokers 127\.0\.0\.1:1 \(/,
            ) as string,
          },
        ]);
        // The Kafka client's own lines reach Nest's logger too, under their own context.
        expect(logger.has('debug', client, clientLine)).toBe(true);
      } finally {
        await app.close();
      }
    },
    30_000,
  );

  it('ends the process with code 1 once a background start failed', async () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation(() => undefined as never);
    const { app, logger } = await create('background', 1_000, true);
    await app.listen(0, '127.0.0.1');
    try {
      await until(() => exit.mock.calls.length > 0, 10_000);
      expect(exit.mock.calls).toEqual([[1]]);
      expect(app.get(KafkaStreams).state).toBe(KafkaStreamsState.ERROR);
      expect(
        logger.lines.filter((l) => l.level === 'error' && l.context === 'KafkaStreams'),
      ).toEqual([
        expect.objectContaining({
          message: expect.stringMatching(
            /^could not start: BrokersUnreachableError \[BROKERS_UNREACHABLE\]: cannot reach/,
          ) as string,
        }),
        {
          level: 'error',
          context: 'KafkaStreams',
          message:
            'the process exits with code 1: the client could not start (client.exitOnStartFailure)',
        },
      ]);
    } finally {
      exit.mockRestore();
      await app.close();
    }
  }, 30_000);

  it("fails app.init() with the typed error under client.start: 'blocking'", async () => {
    const { app } = await create('blocking', 0);
    const error = await app.init().then(
      () => undefined,
      (e: unknown) => e,
    );
    await app.close();
    expect(error).toBeInstanceOf(BrokersUnreachableError);
    expect(error).toMatchObject({
      code: 'BROKERS_UNREACHABLE',
      retriable: true,
      brokers: [UNREACHABLE],
    });
    expect((error as Error).message).toMatch(
      /^cannot reach the Kafka brokers 127\.0\.0\.1:1 \(.*ECONNREFUSED.*\): check that they run/,
    );
  }, 30_000);
});
