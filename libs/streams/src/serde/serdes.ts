import { BytesSerde } from './bytes.serde';
import { DoubleSerde } from './double.serde';
import { IntegerSerde } from './integer.serde';
import { JsonSerde, type JsonSerdeOptions } from './json.serde';
import { LongBigIntSerde } from './long-bigint.serde';
import { LongSerde } from './long.serde';
import { StringSerde } from './string.serde';
import { VoidSerde } from './void.serde';

const STRING = new StringSerde();
const LONG = new LongSerde();
const LONG_BIGINT = new LongBigIntSerde();
const INTEGER = new IntegerSerde();
const DOUBLE = new DoubleSerde();
const BYTES = new BytesSerde();
const VOID = new VoidSerde();

/**
 * The built-in serdes, named as in Kafka's `Serdes` class; the fixed-width number serdes write
 * the same bytes as their Java counterparts, so both sides can share topics and stores.
 *
 * Each factory returns a stateless, shareable instance. Every serde throws a
 * `SerializationError` when it cannot convert (see each serde's documentation): on input, the
 * runtime routes it to the deserialization-exception handler; on output, fix the value.
 *
 * @example
 * const keySerde = Serdes.String();
 * const valueSerde = Serdes.Json<{ count: number; sum: number }>();
 */
export const Serdes = {
  /** UTF-8 text. */
  String: (): StringSerde => STRING,
  /** JSON text (UTF-8); `options.guard` checks the parsed value's shape. */
  Json: <T>(options?: JsonSerdeOptions<T>): JsonSerde<T> => new JsonSerde<T>(options),
  /** 8-byte big-endian signed integers as numbers (exact values only; see `LongSerde`). */
  Long: (): LongSerde => LONG,
  /** 8-byte big-endian signed integers as bigints (the full 64-bit range). */
  LongBigInt: (): LongBigIntSerde => LONG_BIGINT,
  /** 4-byte big-endian signed integers. */
  Integer: (): IntegerSerde => INTEGER,
  /** 8-byte big-endian IEEE-754 doubles. */
  Double: (): DoubleSerde => DOUBLE,
  /** Raw bytes, unchanged. */
  Bytes: (): BytesSerde => BYTES,
  /** No data: `null` as an empty payload. */
  Void: (): VoidSerde => VOID,
} as const;
