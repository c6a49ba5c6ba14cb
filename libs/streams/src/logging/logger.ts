/** The levels of {@link StreamsLogger}, most severe first. */
export type StreamsLogLevel = 'error' | 'warn' | 'info' | 'debug';

/**
 * The engine's one logger: where the client, its stream thread, restores, standbys, the
 * exception handlers and the Kafka client (kafkajs through its `logCreator`, @platformatic/kafka
 * through its clients' events) report. Give yours to
 * `new KafkaStreams(topology, config, { logger })`; `@nest-streams/nestjs` gives one that
 * writes through Nest's `Logger`, so the application's logger (nestjs-pino, winston, ...)
 * receives everything, at Nest's levels (`info` is Nest's `log`).
 *
 * Levels: `error` — something failed that the engine could not handle itself; `warn` — a
 * decision worth knowing (state wiped, tasks migrated, a thread replaced, a record skipped);
 * `info` — the life of the client (restores, rebalances, clean-ups); `debug` — detail.
 */
export interface StreamsLogger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
  /**
   * A logger for a named part (the Kafka client asks for `kafkajs` or `@platformatic/kafka`), so
   * its lines can be told apart (a Nest logger context); without it, the same logger is used.
   */
  child?(name: string): StreamsLogger;
}

/** @internal The name the engine's internals use for {@link StreamsLogger}. */
export type StateLogger = StreamsLogger;

/**
 * The default logger of a `KafkaStreams` created without one: errors and warnings to the
 * console; `info` and `debug` only when the environment sets `NEST_STREAMS_DEBUG`.
 */
export const consoleStreamsLogger: StreamsLogger = {
  error: (message) => console.error(message),
  warn: (message) => console.warn(message),
  info: (message) => {
    if (process.env.NEST_STREAMS_DEBUG) console.info(message);
  },
  debug: (message) => {
    if (process.env.NEST_STREAMS_DEBUG) console.debug(message);
  },
};

/**
 * A complete logger from the levels `partial` has: a missing `error` goes to its `warn`, a
 * missing `warn` to the console, missing `info` and `debug` are dropped; `child` is kept.
 */
export function completeStreamsLogger(partial: Partial<StreamsLogger>): StreamsLogger {
  const warn = partial.warn?.bind(partial) ?? consoleStreamsLogger.warn;
  const drop = (): void => undefined;
  return {
    error: partial.error?.bind(partial) ?? warn,
    warn,
    info: partial.info?.bind(partial) ?? drop,
    debug: partial.debug?.bind(partial) ?? drop,
    ...(partial.child ? { child: partial.child.bind(partial) } : {}),
  };
}

/** @internal The name the engine's internals use for {@link consoleStreamsLogger}. */
export const consoleStateLogger = consoleStreamsLogger;
