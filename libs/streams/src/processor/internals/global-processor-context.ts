import { UnknownStateStoreError } from '../../errors/unknown-state-store.error';
import type { ProcessorContext, RecordMetadata } from '../processor-context';
import type { TaskId } from '../task-id';

/** What a global update processor's context is made of. */
export interface GlobalProcessorContextOptions {
  readonly applicationId: string;
  readonly taskId: TaskId;
  readonly appConfigs: { readonly [name: string]: unknown };
  /** The opened global stores by name: the only stores a global processor reaches. */
  readonly stores: ReadonlyMap<string, unknown>;
  /** The record being processed, `undefined` between records. */
  recordMetadata(): RecordMetadata | undefined;
  /** The wall clock (mocked by the TopologyTestDriver). */
  now(): number;
}

/**
 * The context of a global store's update processor (`globalTable`'s table source, or
 * `addGlobalStore`'s processor), as `KafkaStreams` and the TopologyTestDriver give it: the
 * global stores, no forwarding (it has no children), no stream time, no punctuations, as in
 * Kafka Streams.
 *
 * Errors: `getStateStore` of a store that is not global throws `UnknownStateStoreError`;
 * `schedule` and `currentStreamTimeMs` throw an `Error` (global processors have neither: keep
 * such logic in a processor of a stream task).
 */
export function globalProcessorContext(
  options: GlobalProcessorContextOptions,
): ProcessorContext<unknown, unknown> {
  return {
    applicationId: options.applicationId,
    taskId: options.taskId,
    appConfigs: options.appConfigs,
    recordMetadata: () => options.recordMetadata(),
    forward: () => undefined,
    getStateStore: <S>(name: string): S => {
      const store = options.stores.get(name);
      if (store === undefined) {
        throw new UnknownStateStoreError(
          `a global store processor can only read global stores, not '${name}'`,
        );
      }
      return store as S;
    },
    schedule: () => {
      throw new Error('global store processors cannot schedule punctuations');
    },
    commit: () => undefined,
    currentStreamTimeMs: () => {
      throw new Error('global store processors have no stream time');
    },
    currentSystemTimeMs: () => options.now(),
    hasChildren: () => false,
  };
}
