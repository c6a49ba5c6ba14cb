import type { LogEntry } from 'kafkajs';
import { logLevel } from './kafkajs';
import { kafkajsLine, kafkajsLogCreator } from './kafkajs-log-creator';

const entry = (level: logLevel, namespace: string, message: string, extra = {}): LogEntry => ({
  namespace,
  level,
  label: logLevel[level],
  log: { timestamp: '2026-01-01T00:00:00.000Z', logger: 'kafkajs', message, ...extra },
});

describe('kafkajsLogCreator', () => {
  it("writes each kafkajs level to the engine logger's, one line per entry", () => {
    const lines: string[] = [];
    const at = (level: string) => (message: string) => void lines.push(`${level} ${message}`);
    const log = kafkajsLogCreator({
      error: at('error'),
      warn: at('warn'),
      info: at('info'),
      debug: at('debug'),
    })(logLevel.INFO);
    log(entry(logLevel.ERROR, 'Runner', 'Crash', { groupId: 'g', stack: 'Error: ...' }));
    log(entry(logLevel.WARN, 'Runner', 'The group is rebalancing, re-joining'));
    log(entry(logLevel.INFO, 'Consumer', 'Starting', { groupId: 'g' }));
    log(entry(logLevel.DEBUG, 'Connection', 'Request Metadata(key: 3, version: 6)'));
    // A failed connection attempt: the engine reports the unreachable cluster itself.
    log(entry(logLevel.ERROR, 'Connection', 'Connection error: connect ECONNREFUSED 127.0.0.1:1'));
    // Retries bounded by delivery.timeout.ms, on purpose.
    const bounded = 'Limiting retries for the idempotent producer may invalidate EoS guarantees';
    log(entry(logLevel.WARN, 'Producer', bounded));
    expect(lines).toEqual([
      'error [Runner] Crash {"groupId":"g"}',
      'warn [Runner] The group is rebalancing, re-joining',
      'info [Consumer] Starting {"groupId":"g"}',
      'debug [Connection] Request Metadata(key: 3, version: 6)',
      'debug [Connection] Connection error: connect ECONNREFUSED 127.0.0.1:1',
      `debug [Producer] ${bounded}`,
    ]);
  });

  it('keeps a line readable when a field cannot be serialized', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(kafkajsLine(entry(logLevel.WARN, 'X', 'odd', { cyclic }))).toBe('[X] odd {...}');
  });
});
