import type { LogEntry } from 'kafkajs';
import { logLevel } from './kafkajs';
import { kafkajsLine, kafkajsLogCreator } from './kafkajs-log-creator';

const entry = (level: logLevel, namespace: string, message: string, extra = {}): LogEntry => ({
  namespace,
  level,
  label: logLevel[level],
  log: { timestamp: '2026-01-01T00:00:00.000Z', logger: 'kafkajs', message, ...extra },
});

/** kafkajs' log function at INFO over an engine logger that records `<level> <line>`. */
function recordedLog() {
  const lines: string[] = [];
  const at = (level: string) => (message: string) => void lines.push(`${level} ${message}`);
  const log = kafkajsLogCreator({
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
  })(logLevel.INFO);
  return { lines, log };
}

describe('kafkajsLogCreator', () => {
  it("writes each kafkajs level to the engine logger's, one line per entry", () => {
    const { lines, log } = recordedLog();
    log(entry(logLevel.ERROR, 'Runner', 'Crash', { groupId: 'g', stack: 'Error: ...' }));
    log(entry(logLevel.WARN, 'Runner', 'Restarting the consumer in 300ms'));
    log(entry(logLevel.INFO, 'Consumer', 'Starting', { groupId: 'g' }));
    log(entry(logLevel.DEBUG, 'Connection', 'Request Metadata(key: 3, version: 6)'));
    // A failed connection attempt: the engine reports the unreachable cluster itself.
    log(entry(logLevel.ERROR, 'Connection', 'Connection error: connect ECONNREFUSED 127.0.0.1:1'));
    // Retries bounded by delivery.timeout.ms, on purpose.
    const bounded = 'Limiting retries for the idempotent producer may invalidate EoS guarantees';
    log(entry(logLevel.WARN, 'Producer', bounded));
    expect(lines).toEqual([
      'error [Runner] Crash {"groupId":"g"}',
      'warn [Runner] Restarting the consumer in 300ms',
      'info [Consumer] Starting {"groupId":"g"}',
      'debug [Connection] Request Metadata(key: 3, version: 6)',
      'debug [Connection] Connection error: connect ECONNREFUSED 127.0.0.1:1',
      `debug [Producer] ${bounded}`,
    ]);
  });

  it("writes routine answers (a group's, a new topic's, a moving leader's, a topic created twice, a late one) and the rejoins at debug", () => {
    const { lines, log } = recordedLog();
    const response = (error: string) =>
      entry(logLevel.ERROR, 'Connection', 'Response Heartbeat(key: 12, version: 3)', {
        error,
        correlationId: 7,
      });
    log(response('The group is rebalancing, so a rejoin is needed'));
    log(response('The coordinator is not aware of this member'));
    log(response('Specified group generation id is not valid'));
    log(response("The coordinator is loading and hence can't process requests for this group"));
    log(response('The group coordinator is not available'));
    log(response('This is not the correct coordinator for this group'));
    log(entry(logLevel.WARN, 'Runner', 'The group is rebalancing, re-joining', { groupId: 'g' }));
    log(
      entry(
        logLevel.ERROR,
        'Runner',
        'The coordinator is not aware of this member, re-joining the group',
      ),
    );
    const metadata = (error: string) =>
      entry(logLevel.ERROR, 'Connection', 'Response Metadata(key: 3, version: 6)', { error });
    const offsets = (error: string) =>
      entry(logLevel.ERROR, 'Connection', 'Response ListOffsets(key: 2, version: 3)', { error });
    log(metadata('This server does not host this topic-partition'));
    log(offsets('This server does not host this topic-partition'));
    log(
      metadata(
        'There is no leader for this topic-partition as we are in the middle of a leadership election',
      ),
    );
    log(offsets('This server is not the leader for that topic-partition'));
    log(
      entry(logLevel.ERROR, 'Connection', 'Response CreateTopics(key: 19, version: 3)', {
        error: 'Topic creation errors',
      }),
    );
    log(
      entry(logLevel.WARN, 'RequestQueue', 'Response without match', {
        broker: '127.0.0.1:9092',
        correlationId: 1,
      }),
    );
    // Not routine: another error in a response, a topic error outside Metadata, and the same
    // text from another logger.
    log(response('Not authorized to access group: Group authorization failed'));
    log(response('This server does not host this topic-partition'));
    log(entry(logLevel.ERROR, 'Runner', 'The group is rebalancing, so a rejoin is needed'));
    expect(lines).toEqual([
      'debug [Connection] Response Heartbeat(key: 12, version: 3) {"error":"The group is rebalancing, so a rejoin is needed","correlationId":7}',
      'debug [Connection] Response Heartbeat(key: 12, version: 3) {"error":"The coordinator is not aware of this member","correlationId":7}',
      'debug [Connection] Response Heartbeat(key: 12, version: 3) {"error":"Specified group generation id is not valid","correlationId":7}',
      `debug [Connection] Response Heartbeat(key: 12, version: 3) {"error":"The coordinator is loading and hence can't process requests for this group","correlationId":7}`,
      'debug [Connection] Response Heartbeat(key: 12, version: 3) {"error":"The group coordinator is not available","correlationId":7}',
      'debug [Connection] Response Heartbeat(key: 12, version: 3) {"error":"This is not the correct coordinator for this group","correlationId":7}',
      'debug [Runner] The group is rebalancing, re-joining {"groupId":"g"}',
      'debug [Runner] The coordinator is not aware of this member, re-joining the group',
      'debug [Connection] Response Metadata(key: 3, version: 6) {"error":"This server does not host this topic-partition"}',
      'debug [Connection] Response ListOffsets(key: 2, version: 3) {"error":"This server does not host this topic-partition"}',
      'debug [Connection] Response Metadata(key: 3, version: 6) {"error":"There is no leader for this topic-partition as we are in the middle of a leadership election"}',
      'debug [Connection] Response ListOffsets(key: 2, version: 3) {"error":"This server is not the leader for that topic-partition"}',
      'debug [Connection] Response CreateTopics(key: 19, version: 3) {"error":"Topic creation errors"}',
      'debug [RequestQueue] Response without match {"broker":"127.0.0.1:9092","correlationId":1}',
      'error [Connection] Response Heartbeat(key: 12, version: 3) {"error":"Not authorized to access group: Group authorization failed","correlationId":7}',
      'error [Connection] Response Heartbeat(key: 12, version: 3) {"error":"This server does not host this topic-partition","correlationId":7}',
      'error [Runner] The group is rebalancing, so a rejoin is needed',
    ]);
  });

  it('keeps a line readable when a field cannot be serialized', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(kafkajsLine(entry(logLevel.WARN, 'X', 'odd', { cyclic }))).toBe('[X] odd {...}');
  });
});
