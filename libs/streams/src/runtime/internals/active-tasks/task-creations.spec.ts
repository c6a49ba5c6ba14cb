import { TaskCreationCancelledError } from '../../../errors/internals/task-creation-cancelled.error';
import { TaskCreations, isCreationCancelled } from './task-creations';

/** A creation that runs until `finish` is called or its signal aborts (as a restore does). */
function restoreLike() {
  let finish!: (value: string) => void;
  let signalSeen: AbortSignal | undefined;
  const create = (signal: AbortSignal) => {
    signalSeen = signal;
    return new Promise<string>((resolve, reject) => {
      finish = resolve;
      signal.addEventListener('abort', () => reject(new Error('restore aborted')), { once: true });
    });
  };
  return { create, finish: (v: string) => finish(v), signal: () => signalSeen! };
}

describe('TaskCreations', () => {
  it('resolves with what the creation made, and forgets it once it ended', async () => {
    const creations = new TaskCreations();
    const r = restoreLike();
    const cleanUp = jest.fn(async () => undefined);
    const made = creations.run('0_1', r.create, cleanUp);
    expect(creations.taskIds()).toEqual(['0_1']);
    expect(creations.pending('0_1')).toBe(made);
    r.finish('entry');
    await expect(made).resolves.toBe('entry');
    expect(creations.taskIds()).toEqual([]);
    expect(creations.pending('0_1')).toBeUndefined();
    expect(cleanUp).not.toHaveBeenCalled();
  });

  it('cancels a running creation: cleans up, rejects as cancelled, and waits for it', async () => {
    const creations = new TaskCreations();
    const a = restoreLike();
    const b = restoreLike();
    const cleaned: string[] = [];
    const first = creations.run('0_0', a.create, async () => void cleaned.push('0_0'));
    const second = creations.run('0_1', b.create, async () => void cleaned.push('0_1'));
    first.catch(() => undefined);
    await creations.cancel(['0_0', '0_7']); // 0_7 runs no creation: ignored
    expect(cleaned).toEqual(['0_0']);
    const error = await first.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskCreationCancelledError);
    expect(error).toMatchObject({
      code: 'TASK_CREATION_CANCELLED',
      retriable: true,
      taskId: '0_0',
      cause: new Error('restore aborted'),
    });
    expect(isCreationCancelled(error)).toBe(true);
    expect(b.signal().aborted).toBe(false);
    expect(creations.taskIds()).toEqual(['0_1']);
    b.finish('kept');
    await expect(second).resolves.toBe('kept');
  });

  it('counts a creation that ended after its cancellation as cancelled', async () => {
    const creations = new TaskCreations();
    let finish!: () => void;
    const cleanUp = jest.fn(async () => undefined);
    // Ignores its signal (a step that cannot be interrupted), then completes.
    const made = creations.run(
      '0_2',
      () => new Promise<string>((r) => (finish = () => r('x'))),
      cleanUp,
    );
    made.catch(() => undefined);
    const cancelled = creations.cancel(['0_2']);
    finish();
    await cancelled;
    await expect(made).rejects.toBeInstanceOf(TaskCreationCancelledError);
    expect(cleanUp).toHaveBeenCalledTimes(1);
  });

  it('passes a failure of its own through unchanged, without cleaning up', async () => {
    const creations = new TaskCreations();
    const failure = new Error('changelog unreadable');
    const cleanUp = jest.fn(async () => undefined);
    const made = creations.run('0_3', async () => Promise.reject(failure), cleanUp);
    await expect(made).rejects.toBe(failure);
    expect(isCreationCancelled(failure)).toBe(false);
    expect(cleanUp).not.toHaveBeenCalled();
    expect(creations.taskIds()).toEqual([]);
    await creations.cancel(['0_3']); // ended: nothing to cancel
  });
});
