import {
  Consumer,
  decodeConsumerProtocolAssignment,
  decodeConsumerProtocolSubscription,
  encodeConsumerProtocolAssignment,
  encodeConsumerProtocolSubscription,
  kGetApi,
  type API,
  type Callback,
  type BaseOptions,
  type ConsumerOptions,
} from '@platformatic/kafka';
import type {
  GroupConsumerOptions,
  GroupMemberSubscription,
  TopicPartitions,
} from '../group-consumer';
import { PlatformaticStaticMembership } from './platformatic-static-membership';

/** The assignment a member received in SyncGroup, user data included. */
export interface ReceivedAssignment {
  readonly generationId: number;
  readonly memberId: string;
  readonly partitions: readonly TopicPartitions[];
  readonly userData: Buffer;
}

/** What the member asks of its owner around the JoinGroup and SyncGroup requests. */
export interface GroupMemberHooks {
  /**
   * Before every JoinGroup, with the member id it sends (`''`: joining as a new member): what
   * the member gives up first (its owner decides: the eager revocation, or under cooperative
   * rebalancing, dropping partitions a member without an id no longer owns).
   */
  beforeJoin(memberId: string): Promise<void>;
  /** The subscription user data, read again once `beforeJoin` is done. */
  subscriptionUserData(): Buffer;
  /**
   * A heartbeat failed with `error`; the rejoin platformatic starts then (for a group error)
   * waits for the promise, so the owner can act first on a lost membership.
   */
  heartbeatFailed(error: Error): Promise<void>;
  /** On the leader, before SyncGroup: every member's partitions and user data, encoded below. */
  assign(
    members: readonly GroupMemberSubscription[],
  ): Promise<{ memberId: string; partitions: readonly TopicPartitions[]; userData: Buffer }[]>;
  /** The SyncGroup answer, decoded, before platformatic emits `consumer:group:join`. */
  received(assignment: ReceivedAssignment): void;
}

interface JoinGroupResponse {
  generationId: number;
  protocolName: string | null;
  leader: string;
  /** KIP-814: a static leader that rejoined a stable group must not assign (v9). */
  skipAssignment?: boolean;
  memberId: string;
  members: { memberId: string; metadata: Buffer | null }[];
}

type AnyApi = API<unknown[], unknown>;
type RawApi = (...args: unknown[]) => void;

/**
 * platformatic's `Consumer`, used for its group membership only (`joinGroup`, heartbeats,
 * `leaveGroup`, rejoining when the coordinator says so), with the engine's assignor in the
 * JoinGroup and SyncGroup requests. platformatic runs a partition assigner synchronously, skips
 * it when the group has one member, sends one client-wide assignment user data to every member
 * and drops the user data of the assignment a member receives (clients/consumer/consumer.js,
 * `#createAssignments`, `#encodeProtocolAssignment`, `#decodeProtocolAssignment`). This
 * subclass wraps the two APIs platformatic asks its `kGetApi` for: the JoinGroup answer (the
 * members' subscriptions) is kept; on the leader the SyncGroup request carries the hooks'
 * assignments instead of platformatic's; the SyncGroup answer is decoded, user data included,
 * for the hooks. A JoinGroup waits for `beforeJoin` and carries fresh subscription user data; a
 * failed heartbeat waits for `heartbeatFailed` before platformatic acts on it (rejoins). A
 * static leader that rejoined a stable group (KIP-814 `skipAssignment`) runs no assignor and
 * sends no assignments. A member with a `groupInstanceId` uses its APIs through
 * {@link PlatformaticStaticMembership}.
 */
export class PlatformaticGroupMember extends Consumer {
  private lastJoin: JoinGroupResponse | undefined;
  /** With a `groupInstanceId` (KIP-345): closing without leaving, and fencing. */
  readonly staticMembership: PlatformaticStaticMembership | undefined;

  constructor(
    options: ConsumerOptions<Buffer, Buffer, Buffer, Buffer>,
    private readonly hooks: GroupMemberHooks,
    private readonly revokeTimeoutMs: number,
  ) {
    super(options);
    const { groupId, groupInstanceId } = options;
    this.staticMembership = groupInstanceId
      ? new PlatformaticStaticMembership(groupId, groupInstanceId)
      : undefined;
  }

  override [kGetApi]<RequestArguments extends Array<unknown>, ResponseType>(
    name: string,
    callback: Callback<API<RequestArguments, ResponseType>>,
  ): void {
    super[kGetApi]<unknown[], unknown>(name, (error, raw) => {
      const api = raw && this.staticMembership ? this.staticMembership.wrap(name, raw) : raw;
      const wrap = api && !error ? this.wrappers[name] : undefined;
      if (!wrap) {
        callback(error, api as unknown as API<RequestArguments, ResponseType>);
        return;
      }
      const wrapped = wrap(api!);
      callback(null, Object.assign(wrapped, api) as unknown as API<RequestArguments, ResponseType>);
    });
  }

  private readonly wrappers: Record<string, ((api: AnyApi) => RawApi) | undefined> = {
    JoinGroup: (api) => this.joinGroupApi(api),
    SyncGroup: (api) => this.syncGroupApi(api),
    Heartbeat: (api) => this.heartbeatApi(api),
  };

  /**
   * JoinGroup(connection, groupId, sessionTimeout, rebalanceTimeout, memberId, instanceId,
   * protocolType, protocols, reason, callback): waits for `beforeJoin` (at most the revoke
   * timeout), then sends the subscriptions with the user data read again, so they say what the
   * member holds once it gave up what it had to.
   */
  private joinGroupApi(api: AnyApi): RawApi {
    return (...args: unknown[]) => {
      const callback = args.pop() as Callback<JoinGroupResponse>;
      const send = () => {
        const protocols = args[7] as { name: string; metadata: Buffer }[];
        const userData = this.hooks.subscriptionUserData();
        args[7] = protocols.map((p) => {
          const subscription = decodeConsumerProtocolSubscription(p.metadata);
          return {
            name: p.name,
            metadata: encodeConsumerProtocolSubscription({ ...subscription, userData }),
          };
        });
        (api as unknown as RawApi)(...args, (error: Error | null, response: JoinGroupResponse) => {
          if (!error) this.lastJoin = response;
          callback(error, response);
        });
      };
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<void>(
        (resolve) => (timer = setTimeout(resolve, this.revokeTimeoutMs)),
      );
      const before = this.hooks.beforeJoin((args[4] as string | null) ?? '');
      void Promise.race([before.catch(() => undefined), limit]).then(() => {
        clearTimeout(timer);
        send();
      });
    };
  }

  /** Heartbeat(..., callback): a failure reaches platformatic once `heartbeatFailed` is done. */
  private heartbeatApi(api: AnyApi): RawApi {
    return (...args: unknown[]) => {
      const callback = args.pop() as Callback<unknown>;
      (api as unknown as RawApi)(...args, (error: Error | null, response: unknown) => {
        if (!error) {
          callback(error, response);
          return;
        }
        void this.hooks
          .heartbeatFailed(error)
          .catch(() => undefined)
          .then(() => callback(error, response));
      });
    };
  }

  /** SyncGroup(connection, groupId, generationId, memberId, ..., assignments, callback). */
  private syncGroupApi(api: AnyApi): RawApi {
    return (...args: unknown[]) => {
      const callback = args.pop() as Callback<{ assignment: Buffer }>;
      const generationId = args[2] as number;
      const memberId = args[3] as string;
      const send = () =>
        (api as unknown as RawApi)(
          ...args,
          (error: Error | null, response: { assignment: Buffer }) => {
            if (!error) this.hooks.received(decodeAssignment(generationId, memberId, response));
            callback(error, response);
          },
        );
      const join = this.lastJoin;
      if (!join || join.leader !== memberId || join.generationId !== generationId) {
        send();
        return;
      }
      if (join.skipAssignment) {
        // The group kept its assignment: the coordinator answers with this member's share.
        args[7] = [];
        send();
        return;
      }
      const members = join.members.map((m) => {
        const subscription = decodeConsumerProtocolSubscription(m.metadata ?? Buffer.alloc(0));
        return {
          memberId: m.memberId,
          topics: subscription.topics,
          userData: subscription.userData ?? Buffer.alloc(0),
        };
      });
      this.hooks.assign(members).then(
        (assignments) => {
          args[7] = assignments.map((a) => ({
            memberId: a.memberId,
            assignment: encodeConsumerProtocolAssignment({
              version: 0,
              assignedPartitions: a.partitions.map((p) => ({
                topic: p.topic,
                partitions: [...p.partitions],
              })),
              userData: a.userData,
            }),
          }));
          send();
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    };
  }
}

function decodeAssignment(
  generationId: number,
  memberId: string,
  response: { assignment: Buffer | null },
): ReceivedAssignment {
  if (!response.assignment || response.assignment.length === 0) {
    return { generationId, memberId, partitions: [], userData: Buffer.alloc(0) };
  }
  const decoded = decodeConsumerProtocolAssignment(response.assignment);
  return {
    generationId,
    memberId,
    partitions: decoded.assignedPartitions.map((p) => ({
      topic: p.topic,
      partitions: [...p.partitions],
    })),
    userData: decoded.userData ?? Buffer.alloc(0),
  };
}

/**
 * The platformatic consumer options of a member of group `options.groupId`: the client's
 * (brokers, TLS, SASL, client id) with the group's timeouts, its static id if any, no
 * autocommit, and the engine's assignor as the only protocol.
 */
export function groupMemberOptions(
  clientOptions: BaseOptions,
  options: GroupConsumerOptions,
): ConsumerOptions<Buffer, Buffer, Buffer, Buffer> {
  return {
    ...clientOptions,
    groupId: options.groupId,
    sessionTimeout: options.sessionTimeoutMs,
    heartbeatInterval: options.heartbeatIntervalMs,
    rebalanceTimeout: options.rebalanceTimeoutMs,
    autocommit: false,
    ...(options.groupInstanceId ? { groupInstanceId: options.groupInstanceId } : {}),
    protocols: [{ name: options.assignor.name, version: 1 }],
    protocolsMetadata: () => Promise.resolve(options.assignor.subscriptionUserData()),
  };
}
