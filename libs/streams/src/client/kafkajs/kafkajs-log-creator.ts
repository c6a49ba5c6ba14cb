import type { LogEntry, logCreator } from 'kafkajs';
import { logLevel } from './kafkajs';
import type { StreamsLogger } from '../../logging/logger';

/**
 * kafkajs errors about a connection attempt (repeated at every retry): the engine reports an
 * unreachable cluster itself, typed and naming the brokers (`BrokersUnreachableError`, a thread
 * replaced), so these go to `debug`.
 */
const CONNECTION_ATTEMPTS = [
  { namespace: 'Connection', message: 'Connection error' },
  { namespace: 'Connection', message: 'Connection timeout' },
  { namespace: 'BrokerPool', message: 'Failed to connect to seed broker' },
  // Told at each producer's creation: the engine bounds its retries by delivery.timeout.ms, as
  // Java's producer does (a send that fails still fails the thread, whose tasks close dirty).
  { namespace: 'Producer', message: 'Limiting retries for the idempotent producer' },
];

/** Fields of a kafkajs log entry that are not worth a line's space. */
const DROPPED = new Set(['timestamp', 'logger', 'message', 'stack']);

/**
 * kafkajs' `logCreator` writing to the engine's logger: ERROR → `error`, WARN → `warn`, INFO →
 * `info`, DEBUG → `debug`, one line per entry: `[<namespace>] <message> <other fields as JSON>`
 * (no stack traces: the engine reports the errors that matter itself, typed). Failed connection
 * attempts, and the producer's notice of its bounded retries, go to `debug` (see
 * {@link CONNECTION_ATTEMPTS}).
 */
export function kafkajsLogCreator(logger: StreamsLogger): logCreator {
  return () => (entry: LogEntry) => {
    const line = kafkajsLine(entry);
    const attempt = CONNECTION_ATTEMPTS.some(
      (c) => entry.namespace === c.namespace && entry.log.message.startsWith(c.message),
    );
    switch (attempt ? logLevel.DEBUG : entry.level) {
      case logLevel.ERROR:
        logger.error(line);
        break;
      case logLevel.WARN:
        logger.warn(line);
        break;
      case logLevel.INFO:
        logger.info(line);
        break;
      default:
        logger.debug(line);
    }
  };
}

/** One kafkajs entry as a line. */
export function kafkajsLine(entry: LogEntry): string {
  const { message } = entry.log;
  const fields = Object.fromEntries(
    Object.entries(entry.log).filter(([key, value]) => !DROPPED.has(key) && value !== undefined),
  );
  const extra = Object.keys(fields).length > 0 ? ` ${safeJson(fields)}` : '';
  return `[${entry.namespace}] ${message}${extra}`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return '{...}';
  }
}
