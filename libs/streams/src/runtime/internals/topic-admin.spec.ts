import type { Admin } from 'kafkajs';
import { KafkaJSProtocolError } from 'kafkajs';
import { fetchTopicOffsetsSettled } from './topic-admin';

const OFFSETS = [{ partition: 0, offset: '7', high: '7', low: '0' }];

/** A kafkajs protocol error as its retrier rethrows it: the broker's error type, retriable. */
function protocolError(type: string): Error {
  return Object.assign(new KafkaJSProtocolError(type), { type, retriable: true });
}

function adminFailing(errors: Error[]): { admin: Admin; calls: () => number } {
  let calls = 0;
  const admin = {
    fetchTopicOffsets: () => {
      const error = errors[calls++];
      return error ? Promise.reject(error) : Promise.resolve(OFFSETS);
    },
  } as unknown as Admin;
  return { admin, calls: () => calls };
}

describe('fetchTopicOffsetsSettled', () => {
  it('retries while the partition leadership settles, then answers', async () => {
    const { admin, calls } = adminFailing([
      protocolError('NOT_LEADER_FOR_PARTITION'),
      protocolError('LEADER_NOT_AVAILABLE'),
    ]);
    await expect(fetchTopicOffsetsSettled(admin, 'changelog')).resolves.toEqual(OFFSETS);
    expect(calls()).toBe(3);
  });

  it('throws any other error at once', async () => {
    const { admin, calls } = adminFailing([protocolError('TOPIC_AUTHORIZATION_FAILED')]);
    await expect(fetchTopicOffsetsSettled(admin, 'changelog')).rejects.toThrow(
      'TOPIC_AUTHORIZATION_FAILED',
    );
    expect(calls()).toBe(1);
  });

  it('gives up with the leadership error once its time is spent', async () => {
    const errors = Array.from({ length: 100 }, () => protocolError('NOT_LEADER_FOR_PARTITION'));
    const { admin, calls } = adminFailing(errors);
    await expect(fetchTopicOffsetsSettled(admin, 'changelog', 200)).rejects.toThrow(
      'NOT_LEADER_FOR_PARTITION',
    );
    expect(calls()).toBeGreaterThanOrEqual(2);
    expect(calls()).toBeLessThan(6);
  });
});
