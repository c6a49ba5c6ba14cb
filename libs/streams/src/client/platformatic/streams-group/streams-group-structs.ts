// The structures the streams group messages (KIP-1071: StreamsGroupHeartbeat, API key 88, and
// StreamsGroupDescribe, 89) share, as apache/kafka's message definitions lay them out
// (clients/src/main/resources/common/message/StreamsGroup*.json: `TaskIds`, `TaskOffset`,
// `Endpoint`, `KeyValue`, `TopicInfo`), with their writers and readers on platformatic's
// `Writer` and `Reader`. Every version of these messages is flexible: compact strings and
// arrays, and a tagged-field section after each structure (always empty here).
import type { Reader, Writer } from '@platformatic/kafka';

/** Tasks of one sub-topology: one task per partition (task id `<subtopologyId>_<partition>`). */
export interface TaskIds {
  readonly subtopologyId: string;
  readonly partitions: readonly number[];
}

/** A task's cumulative changelog offset (the sum over its changelog partitions). */
export interface TaskOffset {
  readonly subtopologyId: string;
  readonly partition: number;
  readonly offset: number;
}

/** Task `task` (`<subtopologyId>_<partition>`) at cumulative changelog offset `offset`. */
export function taskOffset(task: string, offset: number): TaskOffset {
  const cut = task.lastIndexOf('_');
  return { subtopologyId: task.slice(0, cut), partition: Number(task.slice(cut + 1)), offset };
}

/** An instance's `application.server` endpoint. */
export interface StreamsEndpoint {
  readonly host: string;
  readonly port: number;
}

/** `host:port` as a request's endpoint; `null` when unset. */
export function endpointOf(endpoint: string | undefined): StreamsEndpoint | null {
  if (!endpoint) return null;
  const cut = endpoint.lastIndexOf(':');
  return { host: endpoint.slice(0, cut), port: Number(endpoint.slice(cut + 1)) };
}

/** A key and its value (topic configs, client tags). */
export interface KeyValue {
  readonly key: string;
  readonly value: string;
}

/** An internal topic of a sub-topology: a changelog or a repartition source. */
export interface StreamsTopicInfo {
  readonly name: string;
  /** The partition count; 0 when the broker decides (always 0 for changelog topics). */
  readonly partitions: number;
  /** The replication factor; 0 for the broker's default. */
  readonly replicationFactor: number;
  readonly topicConfigs: readonly KeyValue[];
}

/** Appends a compact array of strings (no tagged fields per entry). */
export function writeStrings(w: Writer, values: readonly string[]): void {
  w.appendArray([...values], (e, v) => e.appendString(v), true, false);
}

/** Appends a compact array of INT32 (no tagged fields per entry). */
export function writeInt32s(w: Writer, values: readonly number[]): void {
  w.appendArray([...values], (e, v) => e.appendInt32(v), true, false);
}

/** Appends a compact array of INT16 (no tagged fields per entry). */
export function writeInt16s(w: Writer, values: readonly number[]): void {
  w.appendArray([...values], (e, v) => e.appendInt16(v), true, false);
}

/** Appends a compact array of structures, each followed by its (empty) tagged fields. */
export function writeStructs<T>(
  w: Writer,
  values: readonly T[] | null,
  write: (w: Writer, value: T) => void,
): void {
  w.appendArray(values === null ? null : [...values], (e, v) => write(e, v), true, true);
}

/** Appends a nullable structure: INT8 -1 for null, else 1, its fields and its tagged fields. */
export function writeNullableStruct<T>(
  w: Writer,
  value: T | null,
  write: (w: Writer, value: T) => void,
): void {
  if (value === null) {
    w.appendInt8(-1);
    return;
  }
  w.appendInt8(1);
  write(w, value);
  w.appendTaggedFields();
}

/** Appends a `TaskIds` structure (its fields; the caller's array adds its tagged fields). */
export function writeTaskIds(w: Writer, t: TaskIds): void {
  w.appendString(t.subtopologyId);
  writeInt32s(w, t.partitions);
}

/** Appends a `TaskOffset` structure. */
export function writeTaskOffset(w: Writer, t: TaskOffset): void {
  w.appendString(t.subtopologyId).appendInt32(t.partition).appendInt64(BigInt(t.offset));
}

/** Appends an `Endpoint` structure (host, UINT16 port). */
export function writeEndpoint(w: Writer, e: StreamsEndpoint): void {
  w.appendString(e.host).appendUnsignedInt16(e.port);
}

/** Appends a `KeyValue` structure. */
export function writeKeyValue(w: Writer, kv: KeyValue): void {
  w.appendString(kv.key).appendString(kv.value);
}

/** Appends a `TopicInfo` structure. */
export function writeTopicInfo(w: Writer, t: StreamsTopicInfo): void {
  w.appendString(t.name).appendInt32(t.partitions).appendInt16(t.replicationFactor);
  writeStructs(w, t.topicConfigs, writeKeyValue);
}

/** Reads a compact array of strings. */
export function readStrings(r: Reader): string[] {
  return r.readArray((e) => e.readString(true), true, false);
}

/** Reads a compact array of INT32. */
export function readInt32s(r: Reader): number[] {
  return r.readArray((e) => e.readInt32(), true, false);
}

/** Reads a compact array of INT16. */
export function readInt16s(r: Reader): number[] {
  return r.readArray((e) => e.readInt16(), true, false);
}

/** Reads a compact nullable array of structures, skipping each one's tagged fields. */
export function readStructs<T>(r: Reader, read: (r: Reader) => T): T[] | null {
  return r.readNullableArray((e) => read(e), true, true);
}

/** Reads a nullable structure written as {@link writeNullableStruct} writes it. */
export function readNullableStruct<T>(r: Reader, read: (r: Reader) => T): T | null {
  return r.readNullableStruct(() => {
    const value = read(r);
    r.readTaggedFields();
    return value;
  });
}

/** Reads a `TaskIds` structure (its fields; the caller's array skips its tagged fields). */
export function readTaskIds(r: Reader): TaskIds {
  return { subtopologyId: r.readString(true), partitions: readInt32s(r) };
}

/** Reads a `TaskOffset` structure. */
export function readTaskOffset(r: Reader): TaskOffset {
  return {
    subtopologyId: r.readString(true),
    partition: r.readInt32(),
    offset: Number(r.readInt64()),
  };
}

/** Reads an `Endpoint` structure. */
export function readEndpoint(r: Reader): StreamsEndpoint {
  return { host: r.readString(true), port: r.readUnsignedInt16() };
}

/** Reads a `KeyValue` structure. */
export function readKeyValue(r: Reader): KeyValue {
  return { key: r.readString(true), value: r.readString(true) };
}

/** Reads a `TopicInfo` structure. */
export function readTopicInfo(r: Reader): StreamsTopicInfo {
  return {
    name: r.readString(true),
    partitions: r.readInt32(),
    replicationFactor: r.readInt16(),
    topicConfigs: readStructs(r, readKeyValue) ?? [],
  };
}
