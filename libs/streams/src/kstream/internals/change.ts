/**
 * An update of a KTable row as it travels between KTable processors (Kafka Streams'
 * `Change<V>`): the new value and, when a downstream operator asked for it, the value it
 * replaces. `null` means absent (a new row has `oldValue === null`, a delete has
 * `newValue === null`). Never leaves the topology: `toStream()` forwards `newValue` only.
 */
export interface Change<V> {
  readonly newValue: V | null;
  readonly oldValue: V | null;
}

/** Builds a {@link Change}. */
export function change<V>(newValue: V | null, oldValue: V | null): Change<V> {
  return { newValue, oldValue };
}
