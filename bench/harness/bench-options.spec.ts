import { parseBenchOptions } from './bench-options';

describe('parseBenchOptions', () => {
  it('gives the query and memory options their defaults', () => {
    const options = parseBenchOptions(['query']);
    expect(options.scenario).toBe('query');
    expect(options.gets).toBe(100_000);
    expect(options.durationSeconds).toBe(5);
    expect(options.connections).toBe(10);
    expect(options.rangeUsers).toBe(1_000);
    expect(options.storeCounts).toEqual([1, 10, 50, 200]);
  });

  it('parses the query options, with _ as a digit separator', () => {
    const options = parseBenchOptions([
      'query',
      '--gets',
      '50_000',
      '--duration-s',
      '3',
      '--connections',
      '4',
      '--range-users',
      '250',
    ]);
    expect([
      options.gets,
      options.durationSeconds,
      options.connections,
      options.rangeUsers,
    ]).toEqual([50_000, 3, 4, 250]);
  });

  it('runs one round unless --repeat says more, and refuses zero', () => {
    expect(parseBenchOptions(['aggregate']).repeat).toBe(1);
    expect(parseBenchOptions(['aggregate', '--repeat', '3']).repeat).toBe(3);
    expect(() => parseBenchOptions(['aggregate', '--repeat', '0'])).toThrow(
      "--repeat must be an integer >= 1, got '0'",
    );
  });

  it('sorts and deduplicates --stores', () => {
    expect(parseBenchOptions(['memory', '--stores', '50, 1,10,1']).storeCounts).toEqual([
      1, 10, 50,
    ]);
  });

  it('runs one instance unless --instances lists more, sorted and distinct, at most 8', () => {
    expect(parseBenchOptions(['aggregate']).instances).toEqual([1]);
    expect(parseBenchOptions(['aggregate', '--instances', '2,1,2']).instances).toEqual([1, 2]);
    expect(() => parseBenchOptions(['aggregate', '--instances', '0'])).toThrow(
      "--instances must list integers in 1..8, got '0'",
    );
    expect(() => parseBenchOptions(['aggregate', '--instances', '9'])).toThrow(/--instances/);
  });

  it('rejects bad values with the usage', () => {
    expect(() => parseBenchOptions(['memory', '--stores', '1,x'])).toThrow(/--stores.*usage/s);
    expect(() => parseBenchOptions(['memory', '--stores', '0'])).toThrow(/--stores/);
    expect(() => parseBenchOptions(['query', '--gets', '0'])).toThrow(/--gets must be/);
    expect(() => parseBenchOptions(['query', '--duration-s', '1.5'])).toThrow(/--duration-s/);
  });

  it('leaves the other scenarios options as they were', () => {
    const options = parseBenchOptions(['aggregate', '--events', '1000', '--systems', 'ours']);
    expect(options.events).toBe(1000);
    expect(options.systems).toEqual(['ours']);
    expect(options.cacheMaxBytes).toBe(10_485_760);
  });

  it('runs our engine on both clients and both ceilings by default', () => {
    const { systems, baselineClient } = parseBenchOptions(['aggregate']);
    expect(systems).toEqual([
      'ours',
      'ours-kafkajs',
      'java',
      'kafkajs',
      'platformatic',
      'rocksdb',
      'nodefluent',
    ]);
    expect(baselineClient).toBe('@platformatic/kafka');
  });

  it('selects the engine on kafkajs and its ceiling by name, and names the retired system', () => {
    const options = parseBenchOptions(['aggregate', '--systems', 'ours-kafkajs, kafkajs']);
    expect(options.systems).toEqual(['ours-kafkajs', 'kafkajs']);
    expect(() => parseBenchOptions(['aggregate', '--systems', 'ours-platformatic'])).toThrow(
      "--systems: 'ours-platformatic' is now 'ours' (the engine on its default client, @platformatic/kafka)",
    );
    expect(() => parseBenchOptions(['aggregate', '--systems', 'ours-rdkafka'])).toThrow(
      "--systems: unknown 'ours-rdkafka'",
    );
  });

  it('parses --baseline-client, one of the engine clients', () => {
    const options = parseBenchOptions([
      'aggregate',
      '--baseline',
      '/tmp/before',
      '--baseline-client',
      '@platformatic/kafka',
    ]);
    expect([options.baseline, options.baselineClient]).toEqual([
      '/tmp/before',
      '@platformatic/kafka',
    ]);
    expect(() => parseBenchOptions(['aggregate', '--baseline-client', 'platformatic'])).toThrow(
      "--baseline-client must be one of @platformatic/kafka, kafkajs, got 'platformatic'",
    );
  });
});
