import { StreamsError } from './streams.error';

/**
 * A storage engine failed: an I/O error, a corrupt or locked RocksDB directory, a failed
 * write batch. The engine's own message is kept in `message` and the original error in
 * `cause`. Mirrors Kafka Streams' `ProcessorStateException`.
 *
 * What to do: not retriable as such. The runtime treats it as fatal for the task: it closes the
 * task dirty, and on restart the store is wiped and restored from its changelog. Check disk
 * space, permissions and whether another process holds the state directory's lock.
 */
export class ProcessorStateError extends StreamsError.coded('PROCESSOR_STATE_ERROR', false) {
  constructor(
    /** The store's name. */
    readonly storeName: string,
    /** What the store was doing, e.g. `open`, `write batch`. */
    readonly operation: string,
    cause: unknown,
  ) {
    super(`State store '${storeName}' failed to ${operation}: ${describe(cause)}`, { cause });
  }
}

/**
 * The error's message followed by its causes' messages (bindings wrap the RocksDB status).
 * Duck-typed: errors from native bindings may come from another realm (Jest, workers).
 */
function describe(error: unknown): string {
  const messages: string[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && messages.length < 5) {
    if (typeof current === 'object' && typeof (current as Error).message === 'string') {
      messages.push((current as Error).message);
      current = (current as Error).cause;
    } else {
      messages.push(String(current));
      break;
    }
  }
  return messages.join(': ');
}
