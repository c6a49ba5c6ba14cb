import { parseJavaVersion } from './java-runtime';
import { serverProperties } from './server-properties';

describe('parseJavaVersion', () => {
  it.each([
    ['openjdk version "17.0.15" 2025-04-15', 17],
    ['openjdk version "25" 2025-09-16', 25],
    ['java version "1.8.0_402"', 8],
    ['openjdk version "21.0.2" 2024-01-16 LTS', 21],
  ])('reads %s as %d', (output, major) => {
    expect(parseJavaVersion(output)).toBe(major);
  });

  it('returns undefined for output without a version', () => {
    expect(parseJavaVersion('command not found')).toBeUndefined();
  });
});

describe('serverProperties', () => {
  const text = serverProperties({ brokerPort: 19092, controllerPort: 19093, logDir: '/tmp/k' });
  const props = Object.fromEntries(
    text
      .trim()
      .split('\n')
      .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
  );

  it('configures one combined KRaft node on loopback', () => {
    expect(props['process.roles']).toBe('broker,controller');
    expect(props['controller.quorum.voters']).toBe('1@127.0.0.1:19093');
    expect(props.listeners).toBe('PLAINTEXT://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093');
    expect(props['advertised.listeners']).toBe('PLAINTEXT://127.0.0.1:19092');
    expect(props['log.dirs']).toBe('/tmp/k');
  });

  it('uses single-node replication and fast-test settings', () => {
    expect(props['offsets.topic.replication.factor']).toBe('1');
    expect(props['transaction.state.log.replication.factor']).toBe('1');
    expect(props['transaction.state.log.min.isr']).toBe('1');
    expect(props['group.initial.rebalance.delay.ms']).toBe('0');
    expect(props['auto.create.topics.enable']).toBe('false');
  });
});
