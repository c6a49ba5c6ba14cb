// The group and transaction coordinators of the requests the platformatic adapters send
// themselves (OffsetCommit, TxnOffsetCommit, AddOffsetsToTxn, the streams group's heartbeat),
// found with FindCoordinator and forgotten when they moved.
import {
  FindCoordinatorKeyTypes,
  ProtocolError,
  kGetApi,
  kGetBootstrapConnection,
  kGetConnection,
  type Base,
  type Connection,
} from '@platformatic/kafka';

/** What a coordinator is found for: a consumer or streams group, or a transactional id. */
export type CoordinatorKeyType = 'group' | 'transaction';

/** A coordinator as FindCoordinator names it. */
export interface Coordinator {
  readonly nodeId: number;
  readonly host: string;
  readonly port: number;
}

interface FindCoordinatorResponse {
  coordinators: { key: string; nodeId: number; host: string; port: number }[];
}

type Api<A extends unknown[], R> = (
  connection: Connection,
  ...args: [...A, (e: Error | null, r?: R) => void]
) => void;

/**
 * The coordinators a platformatic client's own requests go to: each found once with
 * FindCoordinator (on the client's bootstrap connection: any live broker answers it) and kept
 * until {@link forget} (the caller's retry forgets it after a coordinator or connection fault,
 * Java's `markCoordinatorUnknown`). The coordinator is reached at the host and port the answer
 * names, through the client's connection pool: not looked up in the client's metadata, which
 * may not list a broker that just (re)joined.
 *
 * Errors: the client's (a `NetworkError` when no broker answers; a `ResponseError` with
 * COORDINATOR_NOT_AVAILABLE or COORDINATOR_LOAD_IN_PROGRESS while the coordinator is being
 * elected or loads): transient faults, retried by the caller.
 */
export class PlatformaticCoordinators {
  private readonly known = new Map<string, Coordinator>();

  constructor(private readonly client: Base) {}

  /** The coordinator of `key` (looked up when not known). */
  async find(type: CoordinatorKeyType, key: string): Promise<Coordinator> {
    const id = `${type}:${key}`;
    const known = this.known.get(id);
    if (known) return known;
    const found = await this.lookUp(type, key);
    this.known.set(id, found);
    return found;
  }

  /** A connection to the coordinator of `key` (looked up when not known). */
  async connection(type: CoordinatorKeyType, key: string): Promise<Connection> {
    const coordinator = await this.find(type, key);
    return new Promise<Connection>((resolve, reject) =>
      this.client[kGetConnection](coordinator, (error, connection) =>
        error || !connection ? reject(error ?? new Error('no connection')) : resolve(connection),
      ),
    );
  }

  /** Forgets the coordinator of `key`: the next call looks it up again (it moved, or died). */
  forget(type: CoordinatorKeyType, key: string): void {
    this.known.delete(`${type}:${key}`);
  }

  private async lookUp(type: CoordinatorKeyType, key: string): Promise<Coordinator> {
    const client = this.client;
    const connection = await new Promise<Connection>((resolve, reject) =>
      client[kGetBootstrapConnection]((error, c) =>
        error || !c ? reject(error ?? new Error('no bootstrap connection')) : resolve(c),
      ),
    );
    const api = await new Promise<Api<[number, string[]], FindCoordinatorResponse>>(
      (resolve, reject) =>
        client[kGetApi]('FindCoordinator', (error, a) =>
          error || !a ? reject(error ?? new Error('no FindCoordinator API')) : resolve(a as never),
        ),
    );
    const keyType =
      type === 'group' ? FindCoordinatorKeyTypes.GROUP : FindCoordinatorKeyTypes.TRANSACTION;
    const response = await new Promise<FindCoordinatorResponse>((resolve, reject) =>
      api(connection, keyType, [key], (error, r) =>
        error || !r ? reject(error ?? new Error('no response')) : resolve(r),
      ),
    );
    const found = response.coordinators.find((c) => c.key === key) ?? response.coordinators[0];
    if (!found) {
      const message = `FindCoordinator named no coordinator of ${type} ${key}`;
      throw new ProtocolError('COORDINATOR_NOT_AVAILABLE', message);
    }
    return { nodeId: found.nodeId, host: found.host, port: found.port };
  }
}
