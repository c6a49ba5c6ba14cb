import { InputPause, waitWithHeartbeats } from './input-pause';
import type { TopicPartitions } from '../../../client/group-consumer';

describe('InputPause', () => {
  it('resumes what it paused, unless a later assignment paused again', () => {
    const calls: string[] = [];
    const consumer = {
      pause: (p: readonly TopicPartitions[]) => void calls.push(`pause ${JSON.stringify(p)}`),
      resume: (p: readonly TopicPartitions[]) => void calls.push(`resume ${JSON.stringify(p)}`),
    };
    const pause = new InputPause();
    const first = pause.pause(consumer, [{ topic: 't', partitions: [0] }]);
    const second = pause.pause(consumer, [{ topic: 't', partitions: [1] }]);
    first();
    second();
    expect(calls).toEqual([
      'pause [{"topic":"t","partitions":[0]}]',
      'pause [{"topic":"t","partitions":[1]}]',
      'resume [{"topic":"t","partitions":[1]}]',
    ]);
  });
});

describe('waitWithHeartbeats', () => {
  it('heartbeats while waiting, ignoring heartbeat errors, and ends when the wait settles', async () => {
    jest.useFakeTimers();
    try {
      let beats = 0;
      let fail!: (error: Error) => void;
      const ready = new Promise<void>((_, reject) => (fail = reject));
      ready.catch(() => undefined);
      const waiting = waitWithHeartbeats(ready, 10, async () => {
        beats++;
        throw new Error('rebalancing');
      });
      await jest.advanceTimersByTimeAsync(35);
      expect(beats).toBe(3);
      fail(new Error('x'));
      await waiting;
      await jest.advanceTimersByTimeAsync(100);
      expect(beats).toBe(3);
    } finally {
      jest.useRealTimers();
    }
  });
});
