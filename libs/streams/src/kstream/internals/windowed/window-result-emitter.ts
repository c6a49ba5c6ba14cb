import type { ProcessorContext } from '../../../processor/processor-context';
import type { Record } from '../../../processor/record';
import type { Windowed } from '../../../windowing/windowed';
import type { Change } from '../change';
import type { DslWindowRangeStore } from '../dsl-window-stores';

/**
 * When a windowed aggregation emits its results (Kafka Streams' `EmitStrategy`, seen from
 * the processor): on every update of a window, or once per window when it closes. The
 * processor asks it whether to forward each update, and gives it the chance to emit the
 * windows that closed after each record.
 */
export interface WindowResultEmitter<K, VA> {
  /** Whether every update of a window is forwarded (`onWindowUpdate`). */
  readonly emitsUpdates: boolean;
  /** Called from the processor's `init` with its context and window store. */
  init(context: ProcessorContext<Windowed<K>, Change<VA>>, store: DslWindowRangeStore<K, VA>): void;
  /** Emits the windows that closed since the last emission, if any (`onWindowClose`). */
  maybeEmitClosed(record: Record<K, unknown>, windowCloseTime: number): void;
}

/** The default strategy: every update is forwarded, nothing waits for the window to close. */
export function onWindowUpdateEmitter<K, VA>(): WindowResultEmitter<K, VA> {
  return { emitsUpdates: true, init: () => undefined, maybeEmitClosed: () => undefined };
}
