import type { Consumer } from 'kafkajs';
import { decodeInfo, type AssignmentInfo } from '../../cluster/internals/assignment-info';
import { AssignerProtocol } from './kafkajs/kafkajs';

/**
 * This member's assignment info (tasks and the host map) in the generation it just joined.
 * kafkajs keeps only the topic->partitions part of a member's own assignment; the user data is
 * read back from the group description, polled (every 100 ms, 50 times) until the member's
 * assignment shows there.
 *
 * @throws Error when the description never shows one: the thread fails as on any error.
 */
export async function readOwnAssignment(
  consumer: Consumer,
  memberId: string,
): Promise<AssignmentInfo> {
  for (let attempt = 0; ; attempt++) {
    const group = await consumer.describeGroup();
    const member = group.members.find((m) => m.memberId === memberId);
    if (member && member.memberAssignment.length > 0) {
      const decoded = AssignerProtocol.MemberAssignment.decode(member.memberAssignment);
      return decodeInfo<AssignmentInfo>(decoded?.userData);
    }
    if (attempt >= 50)
      throw new Error(`member ${memberId} has no assignment in the group description`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
