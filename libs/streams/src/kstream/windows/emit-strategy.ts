/** When a windowed aggregation emits: Kafka Streams' `EmitStrategy.StrategyType`. */
export type EmitStrategyType = 'ON_WINDOW_UPDATE' | 'ON_WINDOW_CLOSE';

/**
 * When a windowed aggregation emits its results (Kafka Streams' `EmitStrategy`, for
 * `TimeWindowedKStream.emitStrategy` and `SessionWindowedKStream.emitStrategy`):
 * - `onWindowUpdate()` (the default): every update of a window, as it happens (or as the
 *   store's cache flushes).
 * - `onWindowClose()`: one final result per window, once stream time passes its end plus
 *   grace; the store is not cached. Unlike `suppress`, no buffer: the closed windows are read
 *   back from the window store.
 */
export class EmitStrategy {
  private constructor(private readonly strategyType: EmitStrategyType) {}

  static onWindowUpdate(): EmitStrategy {
    return new EmitStrategy('ON_WINDOW_UPDATE');
  }

  static onWindowClose(): EmitStrategy {
    return new EmitStrategy('ON_WINDOW_CLOSE');
  }

  type(): EmitStrategyType {
    return this.strategyType;
  }
}
