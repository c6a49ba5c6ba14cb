// The transient cluster faults, as Kafka names them: what each client's classifier looks for
// in its own errors (./kafkajs/kafkajs-transient-faults.ts,
// ./platformatic/platformatic-transient-faults.ts), and what a retry does about each.
import { BrokersUnreachableError } from '../../errors/brokers-unreachable.error';
import { GroupCoordinatorUnconfirmedError } from '../../errors/internals/group-coordinator-unconfirmed.error';
import { PartitionLeaderNotAvailableError } from '../../errors/internals/partition-leader-not-available.error';
import { StreamsError } from '../../errors/streams.error';
import { COORDINATOR_MOVED_WHILE_ASKED, LEADER_MOVED_WHILE_ASKED } from '../answer-confirmation';
import { isCertificateFailure } from '../certificate-failure';

/**
 * What a transient fault asks of the retry:
 * - `leadership`: a partition's leader moved or is being elected: refresh the metadata;
 * - `coordinator`: the group or transaction coordinator moved or is loading: find it again;
 * - `connection`: a broker refused, reset or closed the connection: refresh the metadata (and
 *   the coordinator, if the call had one);
 * - `timeout`: no answer within `request.timeout.ms`: as `connection`;
 * - `busy`: the broker is there but cannot take it now (too few in-sync replicas, a
 *   transaction still completing): back off only.
 */
export type TransientFaultKind = 'leadership' | 'coordinator' | 'connection' | 'timeout' | 'busy';

/** A transient fault found in an error: its kind and a short name for logs and errors. */
export interface TransientFault {
  readonly kind: TransientFaultKind;
  /** The Kafka error name (`NOT_LEADER_OR_FOLLOWER`) or the connection failure's words. */
  readonly reason: string;
  /**
   * True when an answer came but was refused: another broker, asked afterwards, named another
   * leader or coordinator (`LEADER_MOVED_WHILE_ASKED`, `COORDINATOR_MOVED_WHILE_ASKED`, see
   * `answer-confirmation.ts`). The answering broker spoke from before it was fenced (it had hung:
   * SIGSTOP, a long pause, a frozen VM); the retry tells it as a warning.
   */
  readonly refusedAnswer?: boolean;
}

/** Finds the transient fault in a client's error, or `undefined` for any other error. */
export type FaultClassifier = (error: unknown) => TransientFault | undefined;

/**
 * Kafka's retriable error names that a retry overcomes by looking something up again or by
 * waiting (Java's `InvalidMetadataException`, `RetriableException` and coordinator errors).
 * `UNKNOWN_TOPIC_OR_PARTITION` is not among them: only a caller that knows the topic exists
 * (a broker's metadata lagging its creation) retries it, with {@link UNKNOWN_TOPIC_FAULT}.
 */
export const TRANSIENT_KAFKA_ERRORS: Readonly<Record<string, TransientFaultKind>> = {
  NOT_LEADER_OR_FOLLOWER: 'leadership',
  NOT_LEADER_FOR_PARTITION: 'leadership', // kafkajs' older name of the same code (6)
  LEADER_NOT_AVAILABLE: 'leadership',
  UNKNOWN_LEADER_EPOCH: 'leadership',
  FENCED_LEADER_EPOCH: 'leadership',
  REPLICA_NOT_AVAILABLE: 'leadership',
  KAFKA_STORAGE_ERROR: 'leadership',
  NOT_COORDINATOR: 'coordinator',
  NOT_COORDINATOR_FOR_GROUP: 'coordinator', // kafkajs' older name of code 16
  COORDINATOR_NOT_AVAILABLE: 'coordinator',
  GROUP_COORDINATOR_NOT_AVAILABLE: 'coordinator', // kafkajs' older name of code 15
  COORDINATOR_LOAD_IN_PROGRESS: 'coordinator',
  GROUP_LOAD_IN_PROGRESS: 'coordinator', // kafkajs' older name of code 14
  NOT_ENOUGH_REPLICAS: 'busy',
  NOT_ENOUGH_REPLICAS_AFTER_APPEND: 'busy',
  CONCURRENT_TRANSACTIONS: 'busy',
  NETWORK_EXCEPTION: 'connection',
  REQUEST_TIMED_OUT: 'timeout',
};

/** The name under which a lagging broker's UNKNOWN_TOPIC_OR_PARTITION is retried. */
export const UNKNOWN_TOPIC_FAULT: TransientFault = {
  kind: 'leadership',
  reason: 'UNKNOWN_TOPIC_OR_PARTITION',
};

/** The fault a Kafka error name is, if it is one of {@link TRANSIENT_KAFKA_ERRORS}. */
export function transientKafkaError(name: unknown): TransientFault | undefined {
  if (typeof name !== 'string') return undefined;
  const kind = TRANSIENT_KAFKA_ERRORS[name];
  return kind ? { kind, reason: name } : undefined;
}

/**
 * The fault of an error the adapters typed already, whichever client: an unreachable cluster
 * (`BrokersUnreachableError`), a moving leadership (`PartitionLeaderNotAvailableError`), a
 * group coordination that moved while its offsets were asked (`GroupCoordinatorUnconfirmedError`).
 */
export function typedTransientFault(error: unknown): TransientFault | undefined {
  if (error instanceof BrokersUnreachableError) return { kind: 'connection', reason: error.reason };
  if (error instanceof PartitionLeaderNotAvailableError) {
    return refusal('leadership', error.reason, LEADER_MOVED_WHILE_ASKED);
  }
  if (error instanceof GroupCoordinatorUnconfirmedError) {
    return refusal('coordinator', error.reason, COORDINATOR_MOVED_WHILE_ASKED);
  }
  return undefined;
}

/** A fault whose reason starts with `refused` is a refused answer. */
function refusal(kind: TransientFaultKind, reason: string, refused: string): TransientFault {
  return reason.startsWith(refused) ? { kind, reason, refusedAnswer: true } : { kind, reason };
}

/**
 * The transient fault in a client's error, `find` telling it in one link of the error's chain
 * (the error, the errors it aggregates, its causes, at most 8 deep). An engine error is
 * classified by {@link typedTransientFault} only, its causes not searched: an adapter typed it
 * already (a fenced producer's retries may have met a moving coordinator first, and it is still
 * fenced). A broker certificate this client does not trust is no transient fault.
 */
export function findTransientFault<E>(
  error: unknown,
  find: (link: E) => TransientFault | undefined,
): TransientFault | undefined {
  if (isCertificateFailure(error)) return undefined;
  return search(error, find, 0);
}

function search<E>(
  error: unknown,
  find: (link: E) => TransientFault | undefined,
  depth: number,
): TransientFault | undefined {
  if (depth > 8 || typeof error !== 'object' || error === null) return undefined;
  if (error instanceof StreamsError) return typedTransientFault(error);
  const found = find(error as E);
  if (found) return found;
  const link = error as { errors?: unknown; cause?: unknown; originalError?: unknown };
  for (const inner of Array.isArray(link.errors) ? (link.errors as unknown[]) : []) {
    const innerFault = search(inner, find, depth + 1);
    if (innerFault) return innerFault;
  }
  const cause = link.cause ?? link.originalError;
  return cause !== error ? search(cause, find, depth + 1) : undefined;
}
