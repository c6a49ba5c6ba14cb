import type { API, Callback } from '@platformatic/kafka';
import { FencedInstanceIdError } from '../../errors/internals/fenced-instance-id.error';

type AnyApi = API<unknown[], unknown>;
type RawApi = (...args: unknown[]) => void;

/** The group APIs whose answers say whether another process took the instance id. */
const MEMBERSHIP_APIS = new Set(['JoinGroup', 'SyncGroup', 'Heartbeat']);

/**
 * What a static member (KIP-345: a `groupInstanceId`) of the classic group protocol needs and
 * platformatic's `Consumer` does not do, applied to the APIs it asks for
 * (`PlatformaticGroupMember` passes every API through {@link wrap}):
 *
 * - Closing without leaving. platformatic's `close()` sends a LeaveGroup with the member id
 *   (no instance id); a Kafka 4 coordinator takes it as the member's removal and rebalances at
 *   once. After {@link remainInGroup} the LeaveGroup API answers locally instead, as Java's
 *   consumer does for a static member: the member stays in the group until its session times
 *   out, and a successor joining with the same id within `session.timeout.ms` takes its
 *   assignment back without a rebalance.
 * - Being fenced. Once a JoinGroup, SyncGroup or Heartbeat is answered `FENCED_INSTANCE_ID`
 *   (another process joined with the id), or {@link fence} was told so by an offset commit,
 *   every later JoinGroup and SyncGroup fails locally with a {@link FencedInstanceIdError}.
 *   platformatic drops the member id and joins again on that error, which would fence the
 *   other process in turn; the local error is not one it retries, so its join fails and it
 *   emits `error` with it: the adapter reports it and the engine stops the client.
 */
export class PlatformaticStaticMembership {
  private fencedBy: FencedInstanceIdError | undefined;
  private leaveOnClose = true;

  constructor(
    readonly groupId: string,
    readonly groupInstanceId: string,
  ) {}

  /** The error of the fencing, once another process took the id. */
  get fenced(): FencedInstanceIdError | undefined {
    return this.fencedBy;
  }

  /** From now on the member closes without a LeaveGroup. */
  remainInGroup(): void {
    this.leaveOnClose = false;
  }

  /** Records that another process took the id (`cause`: the client's error); returns the error. */
  fence(cause: unknown): FencedInstanceIdError {
    this.fencedBy ??= new FencedInstanceIdError(this.groupId, this.groupInstanceId, { cause });
    return this.fencedBy;
  }

  /** The API platformatic asked for, as a static member uses it. */
  wrap(name: string, api: AnyApi): AnyApi {
    if (name === 'LeaveGroup') {
      const leave: RawApi = (...args) => {
        const callback = args.pop() as Callback<unknown>;
        if (this.leaveOnClose) (api as unknown as RawApi)(...args, callback);
        else callback(null, { throttleTimeMs: 0, errorCode: 0, members: [] });
      };
      return Object.assign(leave, api) as unknown as AnyApi;
    }
    if (!MEMBERSHIP_APIS.has(name)) return api;
    const call: RawApi = (...args) => {
      const callback = args.pop() as Callback<unknown>;
      if (this.fencedBy && name !== 'Heartbeat') {
        callback(this.fencedBy, undefined);
        return;
      }
      (api as unknown as RawApi)(...args, (error: Error | null, response: unknown) => {
        if (error && hasFencedInstanceId(error)) this.fence(error);
        callback(error, response);
      });
    };
    return Object.assign(call, api) as unknown as AnyApi;
  }
}

/** Whether a platformatic error (or one nested in it) is the protocol's `FENCED_INSTANCE_ID`. */
export function hasFencedInstanceId(error: unknown): boolean {
  const seen: unknown[] = [error];
  for (let i = 0; i < seen.length && i < 32; i++) {
    const e = seen[i] as { apiId?: string; errors?: unknown; cause?: unknown } | null;
    if (!e || typeof e !== 'object') continue;
    if (e.apiId === 'FENCED_INSTANCE_ID') return true;
    if (Array.isArray(e.errors)) seen.push(...(e.errors as unknown[]));
    else if (e.errors && typeof e.errors === 'object') seen.push(...Object.values(e.errors));
    if (e.cause) seen.push(e.cause);
  }
  return false;
}
