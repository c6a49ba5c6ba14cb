import { TopologyError } from '../errors/topology.error';
import type { Windowed } from '../windowing/windowed';
import { validateName } from './named';

/** What a full suppression buffer does: emit its oldest records early, or stop the application. */
export type BufferFullStrategy = 'EMIT' | 'SHUT_DOWN';

/**
 * The bounds of a suppression buffer (Kafka Streams' `Suppressed.BufferConfig`): at most
 * `maxRecords` records and `maxBytes` bytes (Kafka's size estimate of keys, values and record
 * metadata), and what happens past them. The buffer is kept in memory and change-logged
 * (`<applicationId>-<store>-changelog`, restored at start) unless logging is disabled.
 *
 * `maxRecords(n)` and `maxBytes(n)` emit early when full ("eager"); `unbounded()` and
 * `shutDownWhenFull()` never emit early ("strict", what `untilWindowCloses` requires).
 *
 * Errors: the factories throw `RangeError` for a negative or non-integer bound.
 */
export class BufferConfig {
  private constructor(
    /** The most records the buffer holds. */
    readonly maxRecordCount: number,
    /** The most bytes the buffer holds (Kafka's estimate). */
    readonly maxByteCount: number,
    /** What happens when a record would exceed a bound. */
    readonly bufferFullStrategy: BufferFullStrategy,
    /** Whether the buffer has a changelog. */
    readonly loggingEnabled: boolean,
    /** Extra configs of the changelog topic. */
    readonly logConfig: Readonly<Record<string, string>>,
  ) {}

  /** At most `recordLimit` records; emits its oldest records early when full. */
  static maxRecords(recordLimit: number): BufferConfig {
    return new BufferConfig(bound(recordLimit), Number.MAX_SAFE_INTEGER, 'EMIT', true, {});
  }

  /** At most `byteLimit` bytes; emits its oldest records early when full. */
  static maxBytes(byteLimit: number): BufferConfig {
    return new BufferConfig(Number.MAX_SAFE_INTEGER, bound(byteLimit), 'EMIT', true, {});
  }

  /** No bound: grows until the application runs out of memory (strict). */
  static unbounded(): BufferConfig {
    return new BufferConfig(
      Number.MAX_SAFE_INTEGER,
      Number.MAX_SAFE_INTEGER,
      'SHUT_DOWN',
      true,
      {},
    );
  }

  /** The same buffer, at most `recordLimit` records. */
  withMaxRecords(recordLimit: number): BufferConfig {
    return this.copy({ maxRecordCount: bound(recordLimit) });
  }

  /** The same buffer, at most `byteLimit` bytes. */
  withMaxBytes(byteLimit: number): BufferConfig {
    return this.copy({ maxByteCount: bound(byteLimit) });
  }

  /** The same buffer without bounds (strict). */
  withNoBound(): BufferConfig {
    return this.copy({
      maxRecordCount: Number.MAX_SAFE_INTEGER,
      maxByteCount: Number.MAX_SAFE_INTEGER,
      bufferFullStrategy: 'SHUT_DOWN',
    });
  }

  /**
   * When full, fail the task (`StreamsProcessingError`, reaching the uncaught-exception
   * handler) rather than emit early: results stay final; give the buffer room or more
   * instances.
   */
  shutDownWhenFull(): BufferConfig {
    return this.copy({ bufferFullStrategy: 'SHUT_DOWN' });
  }

  /** When full, emit the oldest records early (results may then not be final). */
  emitEarlyWhenFull(): BufferConfig {
    return this.copy({ bufferFullStrategy: 'EMIT' });
  }

  /** No changelog: a restart or a move loses what the buffer held. */
  withLoggingDisabled(): BufferConfig {
    return this.copy({ loggingEnabled: false, logConfig: {} });
  }

  /** A changelog (the default), created with `config` on top of the defaults. */
  withLoggingEnabled(config: Readonly<Record<string, string>> = {}): BufferConfig {
    return this.copy({ loggingEnabled: true, logConfig: { ...config } });
  }

  /** Whether the buffer never emits early (`unbounded`, `shutDownWhenFull`). */
  get isStrict(): boolean {
    return this.bufferFullStrategy === 'SHUT_DOWN';
  }

  private copy(changes: Partial<BufferConfigFields>): BufferConfig {
    const f = { ...this, ...changes };
    return new BufferConfig(
      f.maxRecordCount,
      f.maxByteCount,
      f.bufferFullStrategy,
      f.loggingEnabled,
      f.logConfig,
    );
  }
}

type BufferConfigFields = Pick<
  BufferConfig,
  'maxRecordCount' | 'maxByteCount' | 'bufferFullStrategy' | 'loggingEnabled' | 'logConfig'
>;

/**
 * Suppression of a KTable's intermediate updates (Kafka Streams' `Suppressed`), for
 * `KTable.suppress`:
 * - `untilWindowCloses(bufferConfig)`: one final result per window of a windowed table, when
 *   stream time passes the window's end plus its grace (alerting, billing). Deletes are
 *   dropped. Needs a strict buffer (`BufferConfig.unbounded()` or `.shutDownWhenFull()`).
 * - `untilTimeLimit(ms, bufferConfig)`: the latest update of a key, once stream time is `ms`
 *   past its first buffered update (rate limiting); deletes are emitted.
 *
 * @example
 * counts.suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())).toStream()
 *
 * Errors: `untilWindowCloses` throws `TopologyError` for an eager buffer, `untilTimeLimit`
 * `RangeError` for a negative time, `withName` `TopologyError` for an illegal name.
 */
export class Suppressed<K> {
  /** Kafka's nested `Suppressed.BufferConfig`. */
  static readonly BufferConfig = BufferConfig;

  private constructor(
    /** `'window-close'` or `'time-limit'`. */
    readonly kind: 'window-close' | 'time-limit',
    /** The time limit (`untilTimeLimit`), in ms. */
    readonly timeToWaitForMoreEventsMs: number,
    readonly bufferConfig: BufferConfig,
    /** The suppression's processor name; its buffer is `<name>-store`. */
    readonly name: string | undefined,
  ) {}

  /**
   * Only for the type parameter, contravariant as Kafka's `Suppressed<? super K>`: a
   * `Suppressed<unknown>` fits every table, a `Suppressed<Windowed<unknown>>` windowed ones.
   */
  declare private readonly keyType?: (key: K) => void;

  /**
   * Final results of a windowed table: emitted once per window, when it closes.
   *
   * @throws TopologyError for a buffer that emits early: use `BufferConfig.unbounded()` or
   *   `.shutDownWhenFull()`.
   */
  static untilWindowCloses(bufferConfig: BufferConfig): Suppressed<Windowed<unknown>> {
    if (!bufferConfig.isStrict) {
      throw new TopologyError(
        'Suppressed.untilWindowCloses needs a strict buffer (BufferConfig.unbounded() or .shutDownWhenFull()): an eager one would emit results that are not final',
      );
    }
    return new Suppressed<Windowed<unknown>>('window-close', 0, bufferConfig, undefined);
  }

  /**
   * The latest update per key, `timeToWaitForMoreEventsMs` of stream time after the key's
   * first buffered update.
   *
   * @throws RangeError for a negative or non-integer time.
   */
  static untilTimeLimit<K = unknown>(
    timeToWaitForMoreEventsMs: number,
    bufferConfig: BufferConfig,
  ): Suppressed<K> {
    return new Suppressed<K>(
      'time-limit',
      bound(timeToWaitForMoreEventsMs),
      bufferConfig,
      undefined,
    );
  }

  /** @throws TopologyError for an illegal name: choose another. */
  withName(name: string): Suppressed<K> {
    return new Suppressed<K>(
      this.kind,
      this.timeToWaitForMoreEventsMs,
      this.bufferConfig,
      validateName(name),
    );
  }
}

function bound(value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`a suppression bound must be a non-negative integer, got ${value}`);
  }
  return value;
}
