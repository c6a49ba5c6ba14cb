import type { GroupConsumerOptions } from '../src/client/group-consumer';

/**
 * Options of a group consumer a spec makes but never lets join a group: `settings` (timeouts,
 * rebalance protocol) with an assignor named after `groupId` that assigns nothing.
 */
export function idleGroupConsumerOptions(
  groupId: string,
  settings: Omit<GroupConsumerOptions, 'groupId' | 'assignor'>,
): GroupConsumerOptions {
  return {
    groupId,
    assignor: {
      name: groupId,
      subscriptionUserData: () => Buffer.alloc(0),
      assign: () => Promise.resolve([]),
    },
    ...settings,
  };
}
