import { currentOwners, holdBackMovingTasks } from './cooperative-assignment';
import type { ClientAssignment } from './task-assignment';

const assignment = (active: string[], standby: string[] = []): ClientAssignment => ({
  active,
  standby,
  warmup: [],
});

describe('currentOwners', () => {
  it('names the client running each task', () => {
    const owners = currentOwners([
      { processId: 'a', owned: ['0_0', '0_1'], generation: 4 },
      { processId: 'b', owned: ['0_2'], generation: 4 },
      { processId: 'c', owned: [], generation: undefined },
    ]);
    expect([...owners].sort()).toEqual([
      ['0_0', 'a'],
      ['0_1', 'a'],
      ['0_2', 'b'],
    ]);
  });

  it('trusts the newer claim when two clients claim a task (the other lost it)', () => {
    const owners = currentOwners([
      { processId: 'a', owned: ['0_0', '0_1'], generation: 3 },
      { processId: 'b', owned: ['0_1'], generation: 5 },
      { processId: 'c', owned: ['0_0'], generation: undefined },
    ]);
    expect(owners.get('0_0')).toBe('a');
    expect(owners.get('0_1')).toBe('b');
  });

  it('breaks a tie of generations by process id, whatever the order', () => {
    const claims = [
      { processId: 'b', owned: ['0_0'], generation: 2 },
      { processId: 'a', owned: ['0_0'], generation: 2 },
    ];
    expect(currentOwners(claims).get('0_0')).toBe('a');
    expect(currentOwners([...claims].reverse()).get('0_0')).toBe('a');
  });
});

describe('holdBackMovingTasks', () => {
  const stateful = new Set(['0_0', '0_1', '0_2', '0_3']);

  it('keeps a moving task from its target until its owner gave it up; the target stands by', () => {
    // a ran 0_0..0_3; c joined: the target moves 0_2 and 0_3 to c.
    const target = new Map([
      ['a', assignment(['0_0', '0_1'], ['0_3'])],
      ['c', assignment(['0_2', '0_3'], ['0_0'])],
    ]);
    const owners = new Map(['0_0', '0_1', '0_2', '0_3'].map((t) => [t, 'a']));
    const { clients, heldBack } = holdBackMovingTasks(target, owners, stateful);
    expect(heldBack).toBe(2);
    expect(clients.get('a')).toEqual(assignment(['0_0', '0_1'], ['0_3']));
    expect(clients.get('c')).toEqual(assignment([], ['0_0', '0_2', '0_3']));
  });

  it('assigns at once what nobody runs, and what stays where it runs', () => {
    const target = new Map([
      ['a', assignment(['0_0', '0_1'])],
      ['b', assignment(['0_2', '0_3'])],
    ]);
    // b's tasks ran on a client that left: nobody claims them.
    const owners = new Map([
      ['0_0', 'a'],
      ['0_1', 'a'],
    ]);
    const { clients, heldBack } = holdBackMovingTasks(target, owners, stateful);
    expect(heldBack).toBe(0);
    expect(clients).toEqual(target);
  });

  it('adds no standby for a stateless task that moves', () => {
    const target = new Map([['b', assignment(['1_0'])]]);
    const { clients } = holdBackMovingTasks(target, new Map([['1_0', 'a']]), stateful);
    expect(clients.get('b')).toEqual(assignment([], []));
  });

  it('leaves the target assignment unchanged (the host map shows it)', () => {
    const target = new Map([['c', assignment(['0_2'])]]);
    holdBackMovingTasks(target, new Map([['0_2', 'a']]), stateful);
    expect(target.get('c')).toEqual(assignment(['0_2']));
  });
});
