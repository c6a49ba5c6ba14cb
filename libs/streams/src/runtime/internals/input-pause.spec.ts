import { InputPause, waitWithHeartbeats } from './input-pause';
import type { TopicPartitions } from './group-consumer';

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
    let beats = 0;
    const ready = new Promise<void>((_, reject) => setTimeout(() => reject(new Error('x')), 55));
    ready.catch(() => undefined);
    await waitWithHeartbeats(ready, 10, async () => {
      beats++;
      throw new Error('rebalancing');
    });
    expect(beats).toBeGreaterThanOrEqual(3);
  });
});
