import { keepsTasks } from './assignment-tasks';

describe('keepsTasks', () => {
  const held = { active: ['0_1', '0_0'], standby: ['1_2'] };

  it('is true for the same active and standby tasks, in any order', () => {
    expect(keepsTasks({ active: ['0_0', '0_1'], standby: ['1_2'] }, held)).toBe(true);
  });

  it('is false when an active or standby task comes, goes or changes role', () => {
    expect(keepsTasks({ active: ['0_0'], standby: ['1_2'] }, held)).toBe(false);
    expect(keepsTasks({ active: ['0_0', '0_1', '0_2'], standby: ['1_2'] }, held)).toBe(false);
    expect(keepsTasks({ active: ['0_0', '0_1'], standby: [] }, held)).toBe(false);
    expect(keepsTasks({ active: ['0_0', '1_2'], standby: ['0_1'] }, held)).toBe(false);
  });

  it('is false for a first assignment of a client that holds nothing yet', () => {
    expect(keepsTasks({ active: ['0_0'], standby: [] }, { active: [], standby: [] })).toBe(false);
  });
});
