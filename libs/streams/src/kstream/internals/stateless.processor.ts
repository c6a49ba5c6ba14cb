import type { Processor } from '../../processor/processor';
import type { ProcessorContext } from '../../processor/processor-context';
import type { Record } from '../../processor/record';
import type { ForeachAction, KeyValue, KeyValueMapper, Predicate, ValueMapper } from '../functions';

/** What a stateless operator does with one record: forwards none, one or several records. */
export type RecordStep<K, V, KOut, VOut> = (
  record: Record<K, V>,
  context: ProcessorContext<KOut, VOut>,
) => void;

/**
 * The processor of a stateless KStream operator (`filter`, `map`, `peek`, ...): runs `step` on
 * every record. `keyPreserving` when the step forwards records with the keys it received, so
 * prefetching looks through it. A user function that throws fails the task.
 */
export class StatelessProcessor<K, V, KOut, VOut> implements Processor<K, V, KOut, VOut> {
  private context!: ProcessorContext<KOut, VOut>;

  constructor(
    private readonly step: RecordStep<K, V, KOut, VOut>,
    readonly keyPreserving: boolean,
  ) {}

  init(context: ProcessorContext<KOut, VOut>): void {
    this.context = context;
  }

  process(record: Record<K, V>): void {
    this.step(record, this.context);
  }
}

/** `filter` / `filterNot`: forwards the records `predicate` keeps (with `not`, the others). */
export function filterProcessor<K, V>(
  predicate: Predicate<K, V>,
  not: boolean,
): StatelessProcessor<K, V, K, V> {
  return new StatelessProcessor((record, context) => {
    if (predicate(record.key, record.value) !== not) context.forward(record);
  }, true);
}

/** `peek` (forwards every record after the action) and `foreach` (forwards nothing). */
export function peekProcessor<K, V>(
  action: ForeachAction<K, V>,
  forwardDownstream: boolean,
): StatelessProcessor<K, V, K, V> {
  return new StatelessProcessor((record, context) => {
    action(record.key, record.value);
    if (forwardDownstream) context.forward(record);
  }, true);
}

/** `map`: replaces key and value with the mapper's `{ key, value }`. Changes keys. */
export function mapProcessor<K, V, KR, VR>(
  mapper: KeyValueMapper<K, V, KeyValue<KR, VR>>,
): StatelessProcessor<K, V, KR, VR> {
  return new StatelessProcessor((record, context) => {
    const pair = mapper(record.key, record.value);
    context.forward(record.withKey(pair.key).withValue(pair.value));
  }, false);
}

/** `flatMap`: forwards every `{ key, value }` the mapper returns, in order. Changes keys. */
export function flatMapProcessor<K, V, KR, VR>(
  mapper: KeyValueMapper<K, V, Iterable<KeyValue<KR, VR>>>,
): StatelessProcessor<K, V, KR, VR> {
  return new StatelessProcessor((record, context) => {
    for (const pair of mapper(record.key, record.value)) {
      context.forward(record.withKey(pair.key).withValue(pair.value));
    }
  }, false);
}

/** `mapValues`: replaces the value, keeps the key. */
export function mapValuesProcessor<K, V, VR>(
  mapper: ValueMapper<V, VR, K>,
): StatelessProcessor<K, V, K, VR> {
  return new StatelessProcessor((record, context) => {
    context.forward(record.withValue(mapper(record.value, record.key)));
  }, true);
}

/** `flatMapValues`: forwards one record per value the mapper returns, keeping the key. */
export function flatMapValuesProcessor<K, V, VR>(
  mapper: ValueMapper<V, Iterable<VR>, K>,
): StatelessProcessor<K, V, K, VR> {
  return new StatelessProcessor((record, context) => {
    for (const value of mapper(record.value, record.key)) context.forward(record.withValue(value));
  }, true);
}

/** `selectKey` (and the key selection of `groupBy`): replaces the key. Changes keys. */
export function selectKeyProcessor<K, V, KR>(
  selector: KeyValueMapper<K, V, KR>,
): StatelessProcessor<K, V, KR, V> {
  return new StatelessProcessor((record, context) => {
    context.forward(record.withKey(selector(record.key, record.value)));
  }, false);
}
