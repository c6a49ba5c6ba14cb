import type { Serde } from './serde';
import { SerializationError } from './serialization.error';

/** Options of {@link JsonSerde}. */
export interface JsonSerdeOptions<T> {
  /**
   * Checks a parsed value before it is handed out as `T`. Without a guard the parsed value is
   * trusted to be a `T` (as with any JSON deserializer).
   */
  readonly guard?: (value: unknown) => value is T;
  /** Passed to `JSON.parse`. */
  readonly reviver?: (key: string, value: unknown) => unknown;
  /** Passed to `JSON.stringify`. */
  readonly replacer?: (key: string, value: unknown) => unknown;
}

/**
 * Values as UTF-8 JSON text (what Kafka users call a JSON serde).
 *
 * Throws {@link SerializationError}: when serializing a value JSON cannot hold (`undefined`, a
 * function, a bigint, a cycle): convert it first, e.g. with a `replacer`; when deserializing
 * bytes that are not valid JSON or that fail the `guard`: the record is malformed and goes to
 * the deserialization-exception handler.
 */
export class JsonSerde<T> implements Serde<T> {
  constructor(private readonly options: JsonSerdeOptions<T> = {}) {}

  serialize(value: T, topic?: string): Buffer {
    let text: string | undefined;
    try {
      text = JSON.stringify(value, this.options.replacer);
    } catch (cause) {
      throw new SerializationError(`Json serde cannot serialize the value: ${message(cause)}`, {
        cause,
        topic,
      });
    }
    if (text === undefined) {
      throw new SerializationError(`Json serde cannot serialize a value of type ${typeof value}`, {
        topic,
      });
    }
    return Buffer.from(text, 'utf8');
  }

  deserialize(bytes: Buffer, topic?: string): T {
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString('utf8'), this.options.reviver);
    } catch (cause) {
      throw new SerializationError(
        `Json serde cannot parse ${bytes.length} bytes: ${message(cause)}`,
        {
          cause,
          topic,
        },
      );
    }
    const guard = this.options.guard;
    if (guard !== undefined && !guard(parsed)) {
      throw new SerializationError('Json serde: the parsed value failed its type guard', { topic });
    }
    return parsed as T;
  }
}

function message(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
