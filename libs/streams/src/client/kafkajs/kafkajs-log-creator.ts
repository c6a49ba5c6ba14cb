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

/**
 * kafkajs' text of a group coordinator's routine answers: a rebalance under way
 * (REBALANCE_IN_PROGRESS), a member or generation the coordinator dropped in one
 * (UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION), a coordinator moving or loading (NOT_COORDINATOR,
 * COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE). kafkajs rejoins or retries on each,
 * and the engine reports a rebalance by its state (REBALANCING), so these go to `debug`.
 */
const ROUTINE_GROUP_ANSWERS = new Set([
  'The group is rebalancing, so a rejoin is needed',
  'The coordinator is not aware of this member',
  'Specified group generation id is not valid',
  "The coordinator is loading and hence can't process requests for this group",
  'The group coordinator is not available',
  'This is not the correct coordinator for this group',
]);

/**
 * kafkajs' text of a partition's leadership moving or not elected yet (NOT_LEADER_FOR_PARTITION,
 * LEADER_NOT_AVAILABLE: right after a topic is created, or while a broker fails over), in any
 * answer: kafkajs refreshes its metadata and retries, and the engine reports what stays broken
 * itself (typed errors), so these go to `debug`.
 */
const ROUTINE_LEADERSHIP_ANSWERS = new Set([
  'This server is not the leader for that topic-partition',
  'There is no leader for this topic-partition as we are in the middle of a leadership election',
]);

/**
 * kafkajs' text of UNKNOWN_TOPIC_OR_PARTITION, routine in a Metadata or ListOffsets answer for a
 * topic just created (not in every broker's metadata yet): the engine polls until its new
 * topics have leaders, and names a source topic that does not exist itself
 * (`MissingSourceTopicError`). Elsewhere (a Produce to a deleted topic) it is not routine.
 */
const NEW_TOPIC_ANSWER = 'This server does not host this topic-partition';

/** The consumer's own lines when it rejoins after one of {@link ROUTINE_GROUP_ANSWERS}. */
const ROUTINE_REJOINS = new Set([
  'The group is rebalancing, re-joining',
  'The coordinator is not aware of this member, re-joining the group',
]);

/**
 * A CreateTopics answer with errors: instances starting together each create the internal
 * topics, and all but the first are told TOPIC_ALREADY_EXISTS, which the engine's admin accepts;
 * any other creation error fails the start, typed and logged by the engine.
 */
const CREATE_TOPICS_ANSWER = 'Response CreateTopics(';

/**
 * A connection's note that an answer came for a request no longer waited for: the engine
 * closed that connection with a fetch in flight (a restore or standby reader given up in a
 * rebalance). A request that timed out fails its caller, which the engine reports itself.
 */
const LATE_ANSWER = { namespace: 'RequestQueue', message: 'Response without match' };

/** Whether an entry is routine: at `debug`, whatever kafkajs' level. */
function routine(entry: LogEntry): boolean {
  const { message, error } = entry.log as { message: string; error?: unknown };
  if (
    CONNECTION_ATTEMPTS.some(
      (c) => entry.namespace === c.namespace && message.startsWith(c.message),
    )
  )
    return true;
  if (entry.namespace === 'Runner' && ROUTINE_REJOINS.has(message)) return true;
  if (entry.namespace === LATE_ANSWER.namespace && message === LATE_ANSWER.message) return true;
  if (entry.namespace !== 'Connection' || typeof error !== 'string') return false;
  if (!message.startsWith('Response ')) return false;
  if (message.startsWith(CREATE_TOPICS_ANSWER)) return true;
  if (ROUTINE_GROUP_ANSWERS.has(error) || ROUTINE_LEADERSHIP_ANSWERS.has(error)) return true;
  return (
    error === NEW_TOPIC_ANSWER &&
    (message.startsWith('Response Metadata(') || message.startsWith('Response ListOffsets('))
  );
}

/** Fields of a kafkajs log entry that are not worth a line's space. */
const DROPPED = new Set(['timestamp', 'logger', 'message', 'stack']);

/**
 * kafkajs' `logCreator` writing to the engine's logger: ERROR → `error`, WARN → `warn`, INFO →
 * `info`, DEBUG → `debug`, one line per entry: `[<namespace>] <message> <other fields as JSON>`
 * (no stack traces: the engine reports the errors that matter itself, typed). Failed connection
 * attempts, the producer's notice of its bounded retries and routine answers go to `debug` (see
 * {@link CONNECTION_ATTEMPTS}, {@link ROUTINE_GROUP_ANSWERS}, {@link ROUTINE_LEADERSHIP_ANSWERS},
 * {@link NEW_TOPIC_ANSWER}, {@link CREATE_TOPICS_ANSWER}, {@link LATE_ANSWER}): a healthy start
 * and rebalance log no error or warning.
 */
export function kafkajsLogCreator(logger: StreamsLogger): logCreator {
  return () => (entry: LogEntry) => {
    const line = kafkajsLine(entry);
    switch (routine(entry) ? logLevel.DEBUG : entry.level) {
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
