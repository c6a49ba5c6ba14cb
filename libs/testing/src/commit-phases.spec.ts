import { commitPhase } from '@nest-streams/streams/internals';
import { onCommitPhase } from './commit-phases';

describe('onCommitPhase', () => {
  it('hears every phase a commit reports until it is removed, and the latest listener wins', () => {
    const first: string[] = [];
    const second: string[] = [];
    onCommitPhase((phase, taskId) => first.push(`${taskId}:${phase}`));
    commitPhase('caches-flushed', '0_1');
    const remove = onCommitPhase((phase, taskId) => second.push(`${taskId}:${phase}`));
    commitPhase('transaction-committed', '0_2');
    remove();
    commitPhase('checkpoint-written', '0_3');
    expect(first).toEqual(['0_1:caches-flushed']);
    expect(second).toEqual(['0_2:transaction-committed']);
  });
});
