import { assignTasks, type AssignmentInput, type ClientState } from './task-assignment';

const tasks = ['0_0', '0_1', '0_2', '0_3', '0_4', '0_5'];
const client = (processId: string, extra: Partial<ClientState> = {}): ClientState => ({
  processId,
  memberIds: [`${processId}-member`],
  taskOffsetSums: {},
  previousActive: [],
  ...extra,
});
const input = (clients: ClientState[], extra: Partial<AssignmentInput> = {}): AssignmentInput => ({
  clients,
  tasks,
  statefulTasks: new Set(tasks),
  taskEndOffsetSums: {},
  numStandbyReplicas: 0,
  acceptableRecoveryLag: 10_000,
  maxWarmupReplicas: 2,
  ...extra,
});

describe('assignTasks', () => {
  it('gives one client every task', () => {
    const { clients } = assignTasks(input([client('a')]));
    expect(clients.get('a')).toEqual({ active: tasks, standby: [], warmup: [] });
  });

  it('balances fresh clients evenly', () => {
    const { clients } = assignTasks(input([client('a'), client('b'), client('c')]));
    expect([...clients.values()].map((c) => c.active.length)).toEqual([2, 2, 2]);
    expect(new Set([...clients.values()].flatMap((c) => c.active))).toEqual(new Set(tasks));
  });

  it('keeps stateless tasks with their previous owner when a client joins, moving only what balance needs', () => {
    const { clients } = assignTasks(
      input(
        [
          client('a', {
            previousActive: ['0_0', '0_1', '0_2'],
            taskOffsetSums: { '0_0': -2, '0_1': -2, '0_2': -2 },
          }),
          client('b', {
            previousActive: ['0_3', '0_4', '0_5'],
            taskOffsetSums: { '0_3': -2, '0_4': -2, '0_5': -2 },
          }),
          client('c'),
        ],
        { statefulTasks: new Set() },
      ),
    );
    expect(clients.get('a')!.active).toEqual(['0_0', '0_1']);
    expect(clients.get('b')!.active).toEqual(['0_3', '0_4']);
    expect(clients.get('c')!.active).toEqual(['0_2', '0_5']);
  });

  it('gives a joining client a task when tasks do not divide evenly (6 on 3 -> 4: 2, 2, 1, 1), moving one', () => {
    const running = (owned: string[]) => ({
      previousActive: owned,
      taskOffsetSums: Object.fromEntries(owned.map((t) => [t, -2])),
    });
    const { clients } = assignTasks(
      input(
        [
          client('a', running(['0_2', '0_4'])),
          client('b', running(['0_0', '0_1'])),
          client('c', running(['0_3', '0_5'])),
          client('d'),
        ],
        { taskEndOffsetSums: Object.fromEntries(tasks.map((t) => [t, 500])) },
      ),
    );
    expect(clients.get('a')!.active).toEqual(['0_2', '0_4']);
    expect(clients.get('b')!.active).toEqual(['0_0', '0_1']);
    expect(clients.get('c')!.active).toEqual(['0_3']);
    expect(clients.get('d')!.active).toEqual(['0_5']);
  });

  it('never leaves a client below floor(tasks / clients) (10 on 3 -> 4: 3, 3, 2, 2)', () => {
    const ten = Array.from({ length: 10 }, (_, p) => `0_${p}`);
    const { clients } = assignTasks(
      input(
        [
          client('a', { previousActive: ['0_0', '0_1', '0_2', '0_3'] }),
          client('b', { previousActive: ['0_4', '0_5', '0_6'] }),
          client('c', { previousActive: ['0_7', '0_8', '0_9'] }),
          client('d'),
        ],
        { tasks: ten, statefulTasks: new Set() },
      ),
    );
    expect([...clients.values()].map((c) => c.active.length)).toEqual([3, 3, 2, 2]);
    expect(clients.get('d')!.active).toEqual(['0_3', '0_9']);
  });

  it('places standbys on another process, preferring clients with local state', () => {
    const { clients } = assignTasks(
      input([client('a'), client('b', { taskOffsetSums: { '0_0': 100 } }), client('c')], {
        numStandbyReplicas: 1,
        taskEndOffsetSums: { '0_0': 100 },
      }),
    );
    for (const [id, assignment] of clients) {
      for (const task of assignment.standby) expect(clients.get(id)!.active).not.toContain(task);
    }
    const standbyCount = [...clients.values()].reduce((n, c) => n + c.standby.length, 0);
    expect(standbyCount).toBe(6);
    const owner0 = [...clients].find(([, c]) => c.active.includes('0_0'))![0];
    if (owner0 !== 'b') expect(clients.get('b')!.standby).toContain('0_0');
  });

  it('never places more standbys than other processes exist', () => {
    const { clients } = assignTasks(input([client('a'), client('b')], { numStandbyReplicas: 3 }));
    expect(clients.get('a')!.standby.length + clients.get('b')!.standby.length).toBe(6);
  });

  it('keeps a stateful task on a caught-up client and warms up the new one instead of moving it cold', () => {
    const sums = Object.fromEntries(tasks.map((t) => [t, 1_000_000]));
    const { clients, probingRebalanceNeeded } = assignTasks(
      input([client('a', { taskOffsetSums: sums, previousActive: tasks }), client('b')], {
        taskEndOffsetSums: sums,
      }),
    );
    // b has no state: a keeps what balance would move, b warms up those tasks (max 2).
    expect(clients.get('a')!.active).toEqual(tasks);
    expect(clients.get('b')!.active).toEqual([]);
    expect(clients.get('b')!.warmup).toEqual(['0_3', '0_4']);
    expect(clients.get('b')!.standby).toEqual(['0_3', '0_4']);
    expect(probingRebalanceNeeded).toBe(true);
  });

  it('moves a task to a new client once its warm-up caught up', () => {
    const sums = Object.fromEntries(tasks.map((t) => [t, 1_000_000]));
    const { clients, probingRebalanceNeeded } = assignTasks(
      input(
        [
          client('a', { taskOffsetSums: sums, previousActive: tasks }),
          client('b', { taskOffsetSums: { '0_3': 999_000, '0_4': 995_000, '0_5': 990_000 } }),
        ],
        { taskEndOffsetSums: sums },
      ),
    );
    expect(clients.get('b')!.active).toEqual(['0_3', '0_4', '0_5']);
    expect(clients.get('a')!.active).toEqual(['0_0', '0_1', '0_2']);
    expect(probingRebalanceNeeded).toBe(false);
  });

  it('with unknown end offsets, keeps stateful tasks where they run and gives an orphan to the client with the most state', () => {
    const { clients, probingRebalanceNeeded } = assignTasks(
      input(
        [
          client('a', { taskOffsetSums: { '0_0': -2, '0_1': -2 }, previousActive: ['0_0', '0_1'] }),
          client('b', { taskOffsetSums: { '0_2': 100 } }),
          client('c', { taskOffsetSums: { '0_2': 3_000 } }),
        ],
        {
          tasks: ['0_0', '0_1', '0_2'],
          statefulTasks: new Set(['0_0', '0_1', '0_2']),
          taskEndOffsetSums: undefined,
        },
      ),
    );
    // Balance would move 0_1 to b, but b's lag is unknown: a keeps it, b warms it up.
    expect(clients.get('a')).toEqual({ active: ['0_0', '0_1'], standby: [], warmup: [] });
    expect(clients.get('b')).toEqual({ active: [], standby: ['0_1'], warmup: ['0_1'] });
    // Nobody runs 0_2: it goes to c, whose copy is the most advanced.
    expect(clients.get('c')).toEqual({ active: ['0_2'], standby: [], warmup: [] });
    expect(probingRebalanceNeeded).toBe(true);
  });
});
