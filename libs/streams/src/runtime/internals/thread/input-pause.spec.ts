import { InputPause, waitWithHeartbeats } from './input-pause';
import type { TopicPartitions } from '../../../client/group-consumer';

/** A consumer that records its pause and resume calls. */
function recordingConsumer() {
  const calls: string[] = [];
  const consumer = {
    pause: (p: readonly TopicPartitions[]) => void calls.push(`pause ${JSON.stringify(p)}`),
    resume: (p: readonly TopicPartitions[]) => void calls.push(`resume ${JSON.stringify(p)}`),
  };
  return { calls, consumer };
}

describe('InputPause', () => {
  it('resumes what it paused, unless a later assignment paused again', () => {
    const { calls, consumer } = recordingConsumer();
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

  it("resumes what a superseded assignment held, though the latest held nothing (issue #38's stall)", () => {
    // Cooperative (and the streams protocol): assignment X holds partitions 0-5 while their
    // tasks restore; Y, before X applied, revokes 3-5 and holds no partition of its own (0-2
    // are mapped to tasks by then). X, superseded, never resumes; Y's resume must.
    const { calls, consumer } = recordingConsumer();
    const pause = new InputPause();
    pause.pause(consumer, [{ topic: 'in', partitions: [0, 1, 2, 3, 4, 5] }]);
    const latest = pause.pause(consumer, [], [{ topic: 'in', partitions: [0, 1, 2] }]);
    latest();
    latest(); // nothing held any more
    expect(calls).toEqual([
      'pause [{"topic":"in","partitions":[0,1,2,3,4,5]}]',
      'pause []',
      'resume [{"topic":"in","partitions":[0,1,2]}]',
      'resume []',
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
