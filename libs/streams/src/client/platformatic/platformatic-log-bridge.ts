// What @platformatic/kafka reports, written to the engine's logger.
import type { StreamsLogger } from '../../logging/logger';
import { transientKafkaError } from '../cluster-retry/transient-fault';
import { isTopicAlreadyExists } from './platformatic-cluster-admin-errors';

/**
 * The part of a platformatic client (`Base`, and its `Admin`, `Producer` and `Consumer`) the
 * bridge listens to: its events, its kind and its instance number.
 */
export interface PlatformaticEventSource {
  readonly type: string;
  readonly instanceId: number;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
}

type Level = keyof Pick<StreamsLogger, 'error' | 'warn' | 'info' | 'debug'>;

/** One platformatic event as a line and its level, or `undefined` to leave it out. */
type EventLine = (...args: unknown[]) => { level: Level; text: string } | undefined;

/** Longest line written for one event (errors of a spent retry can be many). */
const MAX_LINE = 2_000;

/**
 * The platformatic events the bridge writes, and how. platformatic 2.12 has no logger option
 * and no levels: it emits these events on each client (and mirrors them to the `debug` package
 * under `plt:kafka:*`, written to stderr only when `DEBUG` names them). Its per-operation
 * events (`client:performWithRetry`, `client:metadata`, heartbeat starts and ends, ...) are
 * left out: they are traces, not logs.
 */
const EVENTS: Readonly<Record<string, EventLine>> = {
  // A consumer's rejoin the coordinator asked for failed after platformatic's retries: on a
  // connection failure or a coordinator that moved, the adapter joins again (a warning);
  // anything else fails the consumer.
  error: (error) => ({
    level: isNetworkError(error) || isRetriedClusterFault(error) ? 'warn' : 'error',
    text: `failed: ${describeError(error)}`,
  }),
  'client:performWithRetry:retry': (operation, attempt, retries, delay) => ({
    level: 'debug',
    text: `${String(operation)}: attempt ${Number(attempt) + 1} of ${Number(retries) + 1} failed, retrying in ${String(delay)} ms`,
  }),
  'client:performWithRetry:failed': (operation, _retries, errors) => {
    const list = Array.isArray(errors) ? (errors as unknown[]) : [];
    const last = list[list.length - 1];
    return {
      // A group's answers during a rebalance (the member rejoins), connection failures (the
      // engine reports an unreachable cluster itself, typed), a leader or coordinator that moved
      // (the engine's retry policy looks it up again and warns when that lasts) and a topic
      // another instance created first (the admin adapter takes it as created): detail, as for
      // kafkajs.
      level:
        isRejoinAnswer(last) ||
        isNetworkError(last) ||
        isRetriedClusterFault(last) ||
        isTopicAlreadyExists(last)
          ? 'debug'
          : 'warn',
      text: `${String(operation)} failed${list.length > 1 ? ` after ${list.length} attempts` : ''}: ${describeError(last)}`,
    };
  },
  'client:broker:failed': (payload) => ({
    level: 'debug',
    text: `connection to ${brokerOf(payload)} failed`,
  }),
  'client:broker:disconnect': (payload) => ({
    level: 'debug',
    text: `disconnected from ${brokerOf(payload)}`,
  }),
  'consumer:heartbeat:error': (payload) => {
    const { groupId, error } = (payload ?? {}) as { groupId?: string; error?: unknown };
    return { level: 'warn', text: `heartbeat of group ${groupId} failed: ${describeError(error)}` };
  },
  'consumer:heartbeat:stalled': (payload) => {
    const { stalledFor, lastError } = (payload ?? {}) as {
      stalledFor?: number;
      lastError?: unknown;
    };
    return {
      level: 'warn',
      text: `no heartbeat answered for ${stalledFor} ms${lastError ? `: ${describeError(lastError)}` : ''}`,
    };
  },
  'consumer:group:autocommit:error': (payload) => {
    const { groupId, error } = (payload ?? {}) as { groupId?: string; error?: unknown };
    return { level: 'warn', text: `commit of group ${groupId} failed: ${describeError(error)}` };
  },
  'consumer:group:join': (payload) => groupLine('joined', payload),
  'consumer:group:leave': (payload) => groupLine('left', payload),
  'consumer:group:rebalance': (payload) => groupLine('rebalancing', payload),
};

/**
 * Writes what a @platformatic/kafka client reports to the engine's logger (kafkajs' logs go
 * there through `kafkajsLogCreator`). platformatic has no logger of its own to replace, so the
 * bridge listens to the client's events:
 * - `error` (a consumer's rejoin failed after platformatic's retries) → `error`, or `warn` on
 *   a connection failure or a coordinator that moved (the adapter joins again);
 * - an operation that failed once its retries were spent (`client:performWithRetry:failed`) →
 *   `warn`, or `debug` when its errors are a group's answers during a rebalance
 *   (`MEMBER_ID_REQUIRED`, `REBALANCE_IN_PROGRESS`, ...: the member rejoins), connection
 *   failures (the engine reports an unreachable cluster itself), a leader or coordinator that
 *   moved (the engine's retry policy looks it up again) or `TOPIC_ALREADY_EXISTS` (two
 *   instances starting at once both create the internal topics; the admin adapter takes the
 *   answer as created);
 * - a failed heartbeat (other than those answers), a heartbeat stalled past its window, a failed
 *   automatic commit → `warn`;
 * - retries, failed and closed broker connections, the member joining, leaving and
 *   rebalancing → `debug`.
 *
 * One line per event, `[<client kind> <instance>] <what happened>`, no stack traces, at most
 * 2,000 characters. Listening to `error` means an `error` event no longer throws when the
 * client has no other listener (platformatic 2.12 emits it from consumers only, whose adapter
 * listens to it anyway). Returns the function that removes the listeners.
 */
export function bridgePlatformaticLogs(
  client: PlatformaticEventSource,
  logger: StreamsLogger,
): () => void {
  const prefix = `[${client.type} ${client.instanceId}]`;
  const listeners = Object.entries(EVENTS).map(([event, line]) => {
    const listener = (...args: unknown[]) => {
      const written = line(...args);
      if (!written) return;
      const text = `${prefix} ${written.text}`;
      logger[written.level](text.length > MAX_LINE ? `${text.slice(0, MAX_LINE - 3)}...` : text);
    };
    client.on(event, listener);
    return [event, listener] as const;
  });
  return () => {
    for (const [event, listener] of listeners) client.off(event, listener);
  };
}

/**
 * One line for a platformatic error: its message, and for its nested errors (a spent retry's
 * attempts, a response's protocol errors) their messages and protocol error ids, each once.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const nested = new Set<string>();
  const walk = (e: unknown, depth: number): void => {
    if (!(e instanceof Error) || depth > 4) return;
    const children = (e as { errors?: unknown }).errors;
    if (Array.isArray(children) && children.length > 0) {
      for (const child of children as unknown[]) walk(child, depth + 1);
      return;
    }
    if (e !== error) nested.add(errorText(e));
    if (e.cause) walk(e.cause, depth + 1);
  };
  walk(error, 0);
  nested.delete(errorText(error));
  return nested.size > 0 ? `${errorText(error)} (${[...nested].join('; ')})` : errorText(error);
}

function errorText(error: Error): string {
  const { apiId, serverErrorMessage } = error as { apiId?: string; serverErrorMessage?: string };
  const id = apiId ? `${apiId}: ` : '';
  return `${id}${error.message}${serverErrorMessage ? ` (${serverErrorMessage})` : ''}`;
}

/**
 * Whether the error (or one nested in it) says a partition's leader or a coordinator moved
 * (`NOT_LEADER_OR_FOLLOWER`, `FENCED_LEADER_EPOCH`, `NOT_COORDINATOR`, ...): the engine's retry
 * policy refreshes what it knows and tries again.
 */
function isRetriedClusterFault(error: unknown): boolean {
  return some(error, (e) => {
    const kind = transientKafkaError((e as { apiId?: unknown }).apiId)?.kind;
    return kind === 'leadership' || kind === 'coordinator';
  });
}

/** Whether the error (or one nested in it) is a protocol error asking the member to rejoin. */
function isRejoinAnswer(error: unknown): boolean {
  return some(error, (e) => (e as { needsRejoin?: boolean }).needsRejoin === true);
}

/** Whether every leaf of the error is a connection or timeout error (platformatic's code). */
function isNetworkError(error: unknown): boolean {
  const children = (error as { errors?: unknown } | null)?.errors;
  if (Array.isArray(children) && children.length > 0) return children.every(isNetworkError);
  return (error as { code?: string } | null)?.code === 'PLT_KFK_NETWORK';
}

function some(error: unknown, test: (e: Error) => boolean, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 4) return false;
  if (test(error)) return true;
  const children = (error as { errors?: unknown }).errors;
  if (Array.isArray(children) && children.some((c) => some(c, test, depth + 1))) return true;
  return error.cause !== undefined && some(error.cause, test, depth + 1);
}

function brokerOf(payload: unknown): string {
  const broker = (payload as { broker?: { host?: string; port?: number } } | null)?.broker;
  return broker ? `${broker.host}:${broker.port}` : 'a broker';
}

function groupLine(what: string, payload: unknown): { level: Level; text: string } {
  const { groupId, memberId } = (payload ?? {}) as { groupId?: string; memberId?: string };
  return {
    level: 'debug',
    text: `${what} group ${groupId}${memberId ? ` as member ${memberId}` : ''}`,
  };
}
