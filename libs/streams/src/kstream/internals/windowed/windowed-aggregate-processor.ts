import type { Processor } from '../../../processor/processor';
import type { Windowed } from '../../../windowing/windowed';
import type { Change } from '../change';

/**
 * The processor of a windowed `count`/`reduce`/`aggregate` (time, session or sliding windows):
 * it takes the stream's records and emits each window's aggregate as a change, keyed by
 * `Windowed(key, window)`.
 */
export type WindowedAggregateProcessor<K, V, VA> = Processor<K, V, Windowed<K>, Change<VA>>;
