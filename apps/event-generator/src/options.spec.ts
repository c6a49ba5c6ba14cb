import { parseCliOptions, UsageError } from './options';

describe('parseCliOptions', () => {
  it('has defaults: KAFKA_BROKERS, labs.events, 10 users, 1000 events, seed 42', () => {
    const cli = parseCliOptions([], { KAFKA_BROKERS: 'a:1, b:2' });
    expect(cli.generator).toMatchObject({
      brokers: ['a:1', 'b:2'],
      topic: 'labs.events',
      partitions: 6,
      users: 10,
      events: 1000,
      durationMs: undefined,
      rate: undefined,
      seed: 42,
      malformed: 0,
    });
    expect(parseCliOptions([], {}).generator.brokers).toEqual(['127.0.0.1:9092']);
    expect(cli.truthFile).toBeUndefined();
    expect(cli.quiet).toBe(false);
  });

  it('reads every option', () => {
    const cli = parseCliOptions(
      [
        '--brokers=x:9',
        '--topic',
        't',
        '--users',
        '50',
        '--duration',
        '2.5',
        '--rate',
        '200',
        '--seed=-7',
        '--malformed',
        '3',
        '--truth',
        'out.json',
        '--start-time',
        '1700000000000',
        '--step-ms',
        '10',
        '--partitions',
        '3',
        '--batch-size',
        '50',
        '--quiet',
      ],
      {},
    );
    expect(cli.generator).toMatchObject({
      brokers: ['x:9'],
      topic: 't',
      users: 50,
      events: undefined,
      durationMs: 2500,
      rate: 200,
      seed: -7,
      malformed: 3,
      startTime: 1_700_000_000_000,
      stepMs: 10,
      partitions: 3,
      batchSize: 50,
    });
    expect(cli.truthFile).toBe('out.json');
    expect(cli.quiet).toBe(true);
  });

  it.each([
    [['--users', '0']],
    [['--users', 'ten']],
    [['--events', '1.5']],
    [['--rate', '-1']],
    [['--seed', '']],
    [['--nope']],
    [['positional']],
  ])('rejects %j', (argv) => {
    expect(() => parseCliOptions(argv, {})).toThrow(UsageError);
  });
});
