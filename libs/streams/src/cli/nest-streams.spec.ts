import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApplicationActiveError } from '../errors/application-active.error';
import type { ApplicationResetReport } from '../reset/application-reset';
import type { ApplicationResetOptions } from '../reset/reset-application';
import { runNestStreams, type CommandIo } from './nest-streams';
import { parseResetArguments, RESET_USAGE } from './reset-command';

const REPORT: ApplicationResetReport = {
  applicationId: 'app',
  dryRun: false,
  inputOffsets: [
    { topic: 'orders', partition: 0, from: 40, to: 0 },
    { topic: 'orders', partition: 1, from: null, to: 0 },
  ],
  missingInputTopics: ['typo'],
  deletedTopics: ['app-counts-changelog'],
  cleanedStateDir: '/var/lib/state/app',
};

function io(reset: CommandIo['reset'] = async () => REPORT) {
  const out: string[] = [];
  const err: string[] = [];
  const asked: ApplicationResetOptions[] = [];
  return {
    out,
    err,
    asked,
    io: {
      out: (t: string) => void out.push(t),
      err: (t: string) => void err.push(t),
      env: { KAFKA_BROKERS: 'k1:9092,k2:9092' },
      reset: async (options: ApplicationResetOptions) => {
        asked.push(options);
        return reset(options);
      },
    } satisfies CommandIo,
  };
}

describe('nest-streams reset', () => {
  it('parses the options of Kafka’s reset tool', () => {
    expect(
      parseResetArguments(
        [
          '--application-id',
          'app',
          '--bootstrap-server',
          'b1:9092, b2:9092',
          '--input-topics',
          'orders,payments',
          '--to-datetime',
          '2026-12-06T08:00:00Z',
          '--state-dir',
          '/tmp/state',
          '--client',
          'kafkajs',
          '--dry-run',
        ],
        {},
      ),
    ).toEqual({
      applicationId: 'app',
      bootstrapServers: ['b1:9092', 'b2:9092'],
      kafkaClient: 'kafkajs',
      inputTopics: ['orders', 'payments'],
      position: { to: 'datetime', timestamp: Date.UTC(2026, 11, 6, 8) },
      dryRun: true,
      stateDir: '/tmp/state',
    });
    expect(parseResetArguments(['--application-id', 'a'], { KAFKA_BROKERS: 'k:1' })).toEqual({
      applicationId: 'a',
      bootstrapServers: ['k:1'],
      kafkaClient: '@platformatic/kafka',
      inputTopics: [],
      position: { to: 'earliest' },
      dryRun: false,
    });
    expect(parseResetArguments(['--help'], {})).toBe('help');
  });

  it('reads connection settings from a JSON config file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-spec-'));
    try {
      const file = join(dir, 'kafka.json');
      writeFileSync(
        file,
        '{"ssl": true, "sasl": {"mechanism": "plain", "username": "u", "password": "p"}}',
      );
      const options = parseResetArguments(['--application-id', 'a', '--config-file', file], {
        KAFKA_BROKERS: 'k:1',
      });
      expect(options).toMatchObject({
        kafka: { ssl: true, sasl: { mechanism: 'plain', username: 'u', password: 'p' } },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prints the report of a reset and exits 0', async () => {
    const run = io();
    const code = await runNestStreams(
      [
        'reset',
        '--application-id',
        'app',
        '--input-topics',
        'orders,typo',
        '--by-duration',
        'PT1H',
      ],
      run.io,
    );
    expect(code).toBe(0);
    expect(run.asked).toEqual([
      {
        applicationId: 'app',
        bootstrapServers: ['k1:9092', 'k2:9092'],
        kafkaClient: '@platformatic/kafka',
        inputTopics: ['orders', 'typo'],
        position: { to: 'duration', durationMs: 3_600_000 },
        dryRun: false,
      },
    ]);
    expect(run.out.join('')).toBe(
      [
        'Reset application app.',
        'Input offsets committed (topic-partition: before -> after):',
        '  orders-0: 40 -> 0',
        '  orders-1: none -> 0',
        'Input topics not found (skipped): typo',
        'Internal topics deleted: app-counts-changelog',
        'Local state deleted: the task directories of /var/lib/state/app',
        '',
      ].join('\n'),
    );
    expect(run.err).toEqual([]);
  });

  it('says what a dry run would do', async () => {
    const run = io(async () => ({
      ...REPORT,
      dryRun: true,
      missingInputTopics: [],
      deletedTopics: [],
      cleanedStateDir: undefined,
    }));
    expect(await runNestStreams(['reset', '--application-id', 'app', '--dry-run'], run.io)).toBe(0);
    expect(run.out.join('')).toBe(
      [
        'Dry run for application app: nothing was changed.',
        'Input offsets that would be committed (topic-partition: before -> after):',
        '  orders-0: 40 -> 0',
        '  orders-1: none -> 0',
        'Internal topics: none found.',
        '',
      ].join('\n'),
    );
  });

  it('exits 1 with the error when the reset is refused', async () => {
    const run = io(async () => {
      throw new ApplicationActiveError('app', 'Stable');
    });
    expect(await runNestStreams(['reset', '--application-id', 'app'], run.io)).toBe(1);
    expect(run.err.join('')).toBe(
      'reset failed: ApplicationActiveError (APPLICATION_ACTIVE): application app still has members (group state Stable): stop every instance before resetting it\n',
    );
  });

  it('exits 2 with the problem and the usage on a bad command line', async () => {
    const cases: [string[], string][] = [
      [['reset'], '--application-id is required'],
      [
        ['reset', '--application-id', 'a', '--to-earliest', '--to-latest'],
        'give one of --to-earliest, --to-latest, --to-datetime, --by-duration, --to-offset',
      ],
      [
        ['reset', '--application-id', 'a', '--to-offset=-3'],
        "--to-offset must be an offset (0 or more), got '-3'",
      ],
      [
        ['reset', '--application-id', 'a', '--client', 'rdkafka'],
        "--client must be one of @platformatic/kafka, kafkajs, got 'rdkafka'",
      ],
    ];
    for (const [argv, problem] of cases) {
      const run = io();
      expect(await runNestStreams(argv, run.io)).toBe(2);
      expect(run.err.join('')).toBe(`${problem}\n\n${RESET_USAGE}`);
      expect(run.asked).toEqual([]);
    }
    const unknown = io();
    expect(await runNestStreams(['reset', '--application-id', 'a', '--force'], unknown.io)).toBe(2);
    expect(unknown.err.join('')).toMatch(/^Unknown option '--force'/);
    const command = io();
    expect(await runNestStreams(['rest'], command.io)).toBe(2);
    expect(command.err.join('')).toMatch(
      /^unknown command 'rest'\n\nUsage: nest-streams <command>/,
    );
  });

  it('prints the usage on --help and exits 0', async () => {
    const run = io();
    expect(await runNestStreams(['reset', '--help'], run.io)).toBe(0);
    expect(run.out).toEqual([RESET_USAGE]);
  });
});
