import type { StreamsError } from '../../errors/streams.error';
import { typedProducerError, type ProducerErrorContext } from '../producer-error-kinds';
import { locateKafkajs } from './kafkajs-internals';

/** kafkajs' table of Kafka protocol errors (`src/protocol/error.js`), the fields read here. */
interface KafkajsErrorCodes {
  readonly errorCodes: readonly { readonly type: string; readonly message: string }[];
}

let messagesByType: ReadonlyMap<string, string> | undefined;

/**
 * kafkajs' message of each Kafka error: its retrier rethrows a protocol error as a
 * `KafkaJSNonRetriableError` that keeps only the message, not the error's `type`.
 */
function protocolMessages(): ReadonlyMap<string, string> {
  messagesByType ??= new Map(
    locateKafkajs()
      .load<KafkajsErrorCodes>('./src/protocol/error')
      .errorCodes.map((e) => [e.type, e.message]),
  );
  return messagesByType;
}

/** The fields of kafkajs' errors read here. */
interface KafkajsErrorLike {
  readonly type?: unknown;
  readonly message?: unknown;
  readonly cause?: unknown;
  readonly originalError?: unknown;
  readonly errors?: unknown;
}

/** Whether a kafkajs error (or one it wraps) is the Kafka error `type`. */
function hasKafkaError(error: unknown, type: string, depth = 0): boolean {
  if (depth > 8 || typeof error !== 'object' || error === null) return false;
  const e = error as KafkajsErrorLike;
  if (e.type === type) return true;
  if (typeof e.message === 'string') {
    if (e.message === protocolMessages().get(type)) return true;
    // PRODUCER_FENCED (error 90) is newer than kafkajs' table: the broker's own words.
    if (type === 'PRODUCER_FENCED' && /producer has been fenced/i.test(e.message)) return true;
  }
  const inner = Array.isArray(e.errors) ? (e.errors as unknown[]) : [];
  return [e.cause, e.originalError, ...inner].some(
    (next) => next !== undefined && next !== error && hasKafkaError(next, type, depth + 1),
  );
}

/**
 * The port's typed error for a kafkajs producer error (see `typedProducerError`), else the
 * error as kafkajs reported it.
 */
export function typedKafkajsProducerError(error: unknown, context: ProducerErrorContext): unknown {
  const typed: StreamsError | undefined = typedProducerError(
    error,
    (names) => names.find((name) => hasKafkaError(error, name)),
    context,
  );
  return typed ?? error;
}
