import {
  decodeConsumerProtocolAssignment,
  kGetApi,
  type Base,
  type Connection,
} from '@platformatic/kafka';
import { describedGroup, type DescribedGroup } from '../cluster-admin';
import { StreamsGroupCoordinator } from './streams-group/streams-group-coordinator';

interface RawDescribedGroup {
  errorCode: number;
  groupId: string;
  groupState: string;
  protocolType: string;
  members: {
    memberId: string;
    groupInstanceId: string | null;
    memberAssignment: Buffer;
  }[];
}

type DescribeGroupsApi = (
  connection: Connection,
  groups: string[],
  includeAuthorizedOperations: boolean,
  callback: (error: Error | null, response?: { groups: RawDescribedGroup[] }) => void,
) => void;

/**
 * DescribeGroups of one classic group on its coordinator, with each member's assignment user
 * data: platformatic's `Admin.describeGroups` decodes the assignments and drops their user data,
 * so the request goes through the client's own DescribeGroups API (its connection pool, the
 * coordinator found as the streams group requests find it). A coordinator that moved is looked
 * up once more.
 *
 * @throws the client's error when the coordinator cannot be found or reached, or answers with
 *   another error than "unknown group".
 */
export async function describeClassicGroup(client: Base, groupId: string): Promise<DescribedGroup> {
  const coordinator = new StreamsGroupCoordinator(client, groupId);
  const api = await new Promise<DescribeGroupsApi>((resolve, reject) =>
    client[kGetApi]('DescribeGroups', (error, found) =>
      error || !found
        ? reject(error ?? new Error('no DescribeGroups API'))
        : resolve(found as never),
    ),
  );
  for (let attempt = 0; ; attempt++) {
    const connection = await coordinator.connection();
    const response = await new Promise<{ groups: RawDescribedGroup[] }>((resolve, reject) =>
      api(connection, [groupId], false, (error, r) =>
        error || !r ? reject(error ?? new Error('no response')) : resolve(r),
      ),
    ).catch((error: unknown) => {
      // platformatic rejects a response carrying an error code; its errors keep the response.
      const response = (error as { response?: { groups?: RawDescribedGroup[] } }).response;
      if (response?.groups) return { groups: response.groups };
      throw error;
    });
    const group = response.groups.find((g) => g.groupId === groupId);
    if (!group || group.errorCode === GROUP_ID_NOT_FOUND) return { state: 'Dead', members: [] };
    if (COORDINATOR_MOVED.has(group.errorCode) && attempt === 0) {
      coordinator.forget();
      continue;
    }
    if (group.errorCode !== 0) {
      throw new Error(`DescribeGroups of ${groupId} answered error code ${group.errorCode}`);
    }
    return describedGroup(group.groupState, group.protocolType, group.members, (m) => ({
      memberId: m.memberId,
      groupInstanceId: m.groupInstanceId,
      assignmentUserData:
        m.memberAssignment.length > 0
          ? (decodeConsumerProtocolAssignment(m.memberAssignment).userData ?? Buffer.alloc(0))
          : Buffer.alloc(0),
    }));
  }
}

/** GROUP_ID_NOT_FOUND. */
const GROUP_ID_NOT_FOUND = 69;
/** COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR. */
const COORDINATOR_MOVED = new Set([14, 15, 16]);
