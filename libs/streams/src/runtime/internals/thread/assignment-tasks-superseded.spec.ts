import type { AssignmentInfo } from '../../../cluster/internals/assignment-info';
import { openAssignedTasks, type AssignmentTasksContext } from './assignment-tasks';

const info = (active: string[], standby: string[] = []): AssignmentInfo => ({
  version: 1,
  processId: 'p',
  active,
  standby,
  warmup: [],
  hosts: [],
});

/** Active and standby task managers that record what they open; releases wait to be let go. */
function managers() {
  const events: string[] = [];
  const releases: (() => void)[] = [];
  const context = {
    tasks: {
      get: () => undefined,
      creationOf: () => undefined,
      create: async (id: string) => void events.push(`create active ${id}`),
    },
    standbys: {
      release: (id: string) =>
        new Promise<void>((resolve) => {
          events.push(`release standby ${id}`);
          releases.push(resolve);
        }),
      assign: async (ids: readonly string[]) => {
        events.push(`open standbys ${ids.join(',')}`);
        if (ids.includes('0_9')) throw new Error('lock hold by current process');
      },
    },
    logger: { warn: () => undefined },
    cooperative: true,
    committer: {},
  } as unknown as AssignmentTasksContext;
  const letGo = async () => {
    for (const release of releases.splice(0)) release();
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  return { context, events, letGo };
}

describe('openAssignedTasks (cooperative)', () => {
  it('creates no task of an assignment superseded while its standbys were released (issue #38, E)', async () => {
    // Assignment K gives task 0_1 (a standby here) as active; while the standby is released,
    // assignment L supersedes K and gives 0_1 back as a standby. K must not open 0_1's stores:
    // L's standby of 0_1 would find them locked ("lock hold by current process").
    const { context, events, letGo } = managers();
    let latest = 'K';
    const opened = (name: string) => ({
      started: () => void events.push(`${name} started`),
      queued: (fn: () => Promise<void>) => fn(),
      current: () => latest === name,
      failed: (error: unknown) => void events.push(`${name} failed: ${String(error)}`),
    });
    await openAssignedTasks(context, info(['0_1']), opened('K'));
    latest = 'L';
    await openAssignedTasks(context, info([], ['0_1']), opened('L'));
    await letGo();
    expect(events).toEqual(['release standby 0_1', 'open standbys 0_1', 'L started']);
  });

  it('hands a failure to open the standbys to `failed`, never to an unhandled rejection', async () => {
    const { context, events, letGo } = managers();
    await openAssignedTasks(context, info([], ['0_9']), {
      started: () => void events.push('started'),
      queued: (fn) => fn(),
      current: () => true,
      failed: (error) => void events.push(`failed: ${String(error)}`),
    });
    await letGo();
    expect(events).toEqual(['open standbys 0_9', 'failed: Error: lock hold by current process']);
  });
});
