import {
  Consumer,
  decodeConsumerProtocolAssignment,
  decodeConsumerProtocolSubscription,
  encodeConsumerProtocolAssignment,
  kGetApi,
  type API,
  type Callback,
  type ConsumerOptions,
} from '@platformatic/kafka';
import type { GroupMemberSubscription, TopicPartitions } from '../group-consumer';
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
  /** Before a JoinGroup of a member that has a member id (a rejoin): the eager revocation. */
  beforeRejoin(): Promise<void>;
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
 * for the hooks. A JoinGroup of a member that already has an id waits for `beforeRejoin`. A
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
      if (error || !api || (name !== 'JoinGroup' && name !== 'SyncGroup')) {
        callback(error, api as unknown as API<RequestArguments, ResponseType>);
        return;
      }
      const wrapped = name === 'JoinGroup' ? this.joinGroupApi(api) : this.syncGroupApi(api);
      callback(null, Object.assign(wrapped, api) as unknown as API<RequestArguments, ResponseType>);
    });
  }

  /** JoinGroup(connection, groupId, sessionTimeout, rebalanceTimeout, memberId, ..., callback). */
  private joinGroupApi(api: AnyApi): RawApi {
    return (...args: unknown[]) => {
      const callback = args.pop() as Callback<JoinGroupResponse>;
      const send = () =>
        (api as unknown as RawApi)(...args, (error: Error | null, response: JoinGroupResponse) => {
          if (!error) this.lastJoin = response;
          callback(error, response);
        });
      if (!args[4]) {
        send();
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<void>(
        (resolve) => (timer = setTimeout(resolve, this.revokeTimeoutMs)),
      );
      void Promise.race([this.hooks.beforeRejoin().catch(() => undefined), limit]).then(() => {
        clearTimeout(timer);
        send();
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
