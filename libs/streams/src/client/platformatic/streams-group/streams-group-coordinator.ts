import type { Base, Connection } from '@platformatic/kafka';
import { PlatformaticCoordinators, type Coordinator } from '../platformatic-coordinators';
import { streamsGroupDescribeV0, streamsGroupHeartbeatV0 } from './streams-group-apis';
import type { DescribedStreamsGroup } from './streams-group-describe';
import type { StreamsGroupHeartbeatRequest } from './streams-group-heartbeat-request';
import type { StreamsGroupHeartbeatResponse } from './streams-group-heartbeat-response';

/** Kafka's error codes that mean "ask another broker": the coordinator moved or is loading. */
const COORDINATOR_ERRORS = new Set([
  14, // COORDINATOR_LOAD_IN_PROGRESS
  15, // COORDINATOR_NOT_AVAILABLE
  16, // NOT_COORDINATOR
]);

/** Whether a streams group error code means the coordinator must be looked up again. */
export function isCoordinatorError(errorCode: number): boolean {
  return COORDINATOR_ERRORS.has(errorCode);
}

/**
 * Whether `error` (a platformatic error, its nested `errors` and `cause`s) is the broker saying
 * the coordinator cannot be found or reached yet (codes of {@link isCoordinatorError}), e.g. a
 * FindCoordinator on a new cluster while `__consumer_offsets` is being created.
 */
export function isCoordinatorLookupError(error: unknown): boolean {
  const seen: unknown[] = [error];
  for (let i = 0; i < seen.length && i < 32; i++) {
    const e = seen[i] as { apiCode?: unknown; errors?: unknown; cause?: unknown } | null;
    if (!e || typeof e !== 'object') continue;
    if (typeof e.apiCode === 'number' && isCoordinatorError(e.apiCode)) return true;
    if (Array.isArray(e.errors)) seen.push(...(e.errors as unknown[]));
    if (e.cause) seen.push(e.cause);
  }
  return false;
}

type Api<A extends unknown[], R> = (
  connection: Connection,
  ...args: [...A, (e: Error | null, r?: R) => void]
) => void;

/**
 * Sends one streams group's requests (StreamsGroupHeartbeat, StreamsGroupDescribe) to its
 * group coordinator, over the connections of a platformatic client (any client: its
 * bootstrap connection finds the coordinator, its connection pool reaches it). The coordinator
 * is looked up once and again after an error that says it moved; responses come back with
 * their error codes (a coordinator error also forgets the coordinator, so the next call looks
 * it up again).
 */
export class StreamsGroupCoordinator {
  private coordinator: Coordinator | undefined;
  private readonly coordinators: PlatformaticCoordinators;

  constructor(
    client: Base,
    readonly groupId: string,
  ) {
    this.coordinators = new PlatformaticCoordinators(client);
  }

  /** The coordinator's node id, once found. */
  get coordinatorId(): number | undefined {
    return this.coordinator?.nodeId;
  }

  /**
   * Sends a heartbeat.
   *
   * @throws the client's error when the coordinator cannot be found or reached.
   */
  async heartbeat(request: StreamsGroupHeartbeatRequest): Promise<StreamsGroupHeartbeatResponse> {
    const response = await this.send(
      streamsGroupHeartbeatV0 as unknown as Api<
        [StreamsGroupHeartbeatRequest],
        StreamsGroupHeartbeatResponse
      >,
      [request],
    );
    if (isCoordinatorError(response.errorCode)) this.forget();
    return response;
  }

  /**
   * Describes the group.
   *
   * @throws the client's error when the coordinator cannot be found or reached.
   */
  async describe(): Promise<DescribedStreamsGroup> {
    const response = await this.send(
      streamsGroupDescribeV0 as unknown as Api<
        [readonly string[], boolean],
        { groups: DescribedStreamsGroup[] }
      >,
      [[this.groupId], false],
    );
    const group = response.groups.find((g) => g.groupId === this.groupId);
    if (!group) throw new Error(`the coordinator did not describe streams group ${this.groupId}`);
    if (isCoordinatorError(group.errorCode)) this.forget();
    return group;
  }

  /** Forgets the coordinator: the next call looks it up again (it moved). */
  forget(): void {
    this.coordinator = undefined;
    this.coordinators.forget('group', this.groupId);
  }

  /** The group coordinator's connection (looked up when unknown). */
  async connection(): Promise<Connection> {
    this.coordinator = await this.coordinators.find('group', this.groupId);
    return this.coordinators.connection('group', this.groupId);
  }

  private async send<A extends unknown[], R>(api: Api<A, R>, args: A): Promise<R> {
    try {
      // A coordinator that died refuses the connection itself: forgotten too, or every later
      // heartbeat would go to the dead node (issue #38: the streams group lost its member).
      const connection = await this.connection();
      return await new Promise<R>((resolve, reject) =>
        api(connection, ...args, (error: Error | null, response?: R) =>
          error || response === undefined
            ? reject(error ?? new Error('no response'))
            : resolve(response),
        ),
      );
    } catch (error) {
      // A network error (connecting or answering): the next call looks the coordinator up again.
      this.forget();
      throw error;
    }
  }
}
