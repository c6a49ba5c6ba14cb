import type { SourceNodeDef } from '../../../processor/internals/topology-nodes';
import type { ResolvedStreamsConfig } from '../../streams-config';

/** A consumed record's key and value, deserialized; `null` stays `null` (a tombstone). */
export interface DeserializedKeyValue {
  readonly key: unknown;
  readonly value: unknown;
}

/**
 * Deserializes a consumed key and value with the source node's serdes, else the application's
 * default ones, as a stream task and a global store updater both read their source topics.
 *
 * @throws whatever the serde throws (a `SerializationError` for bytes it cannot read): the
 *   caller applies its deserialization exception handler.
 */
export function deserializeSource(
  source: SourceNodeDef,
  config: Pick<ResolvedStreamsConfig, 'defaultKeySerde' | 'defaultValueSerde'>,
  raw: { readonly key: Buffer | null; readonly value: Buffer | null },
  topic: string,
): DeserializedKeyValue {
  const key =
    raw.key === null
      ? null
      : (source.keySerde ?? config.defaultKeySerde).deserialize(raw.key, topic);
  const value =
    raw.value === null
      ? null
      : (source.valueSerde ?? config.defaultValueSerde).deserialize(raw.value, topic);
  return { key, value };
}
