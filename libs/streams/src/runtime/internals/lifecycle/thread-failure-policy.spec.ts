import { FencedInstanceIdError } from '../../../errors/internals/fenced-instance-id.error';
import { StreamThreadExceptionResponse } from '../../kafka-streams-state';
import { KafkaJSConnectionError } from '../../../../test-support/kafkajs-errors';
import { threadFailureAction, type ThreadFailureContext } from './thread-failure-policy';

const unreachable = () => new KafkaJSConnectionError('Connection error: connect ECONNREFUSED');
const processing = () => new Error('processor blew up');

function context(overrides: Partial<ThreadFailureContext> = {}): ThreadFailureContext {
  return {
    active: true,
    unreachableSince: undefined,
    now: 100_000,
    taskTimeoutMs: 300_000,
    handler: () => StreamThreadExceptionResponse.SHUTDOWN_CLIENT,
    ...overrides,
  };
}

describe('threadFailureAction', () => {
  it('replaces the thread after a second while the cluster is unreachable, without the handler', () => {
    const handler = jest.fn(() => StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
    const first = threadFailureAction(unreachable(), context({ handler }));
    expect(first.action).toEqual(expect.objectContaining({ kind: 'replace', delayMs: 1000 }));
    expect(first.unreachableSince).toBe(100_000);
    // Later in the same outage the start is kept.
    const later = threadFailureAction(
      unreachable(),
      context({ handler, unreachableSince: 100_000, now: 400_000 }),
    );
    expect(later.action.kind).toBe('replace');
    expect(later.unreachableSince).toBe(100_000);
    expect(handler).not.toHaveBeenCalled();
  });

  it('asks the handler once the outage outlasted task.timeout.ms', () => {
    const handler = jest.fn(() => StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
    const result = threadFailureAction(
      unreachable(),
      context({ handler, unreachableSince: 100_000, now: 400_001 }),
    );
    expect(handler).toHaveBeenCalledTimes(1);
    expect(result.action.kind).toBe('shutdown-client');
    expect(result.action.reason).toContain('task.timeout.ms (300000 ms)');
  });

  it('applies the handler to any other error', () => {
    const answers: [StreamThreadExceptionResponse, string][] = [
      [StreamThreadExceptionResponse.SHUTDOWN_CLIENT, 'shutdown-client'],
      [StreamThreadExceptionResponse.SHUTDOWN_APPLICATION, 'shutdown-application'],
      [StreamThreadExceptionResponse.REPLACE_THREAD, 'replace'],
    ];
    for (const [response, kind] of answers) {
      const { action, unreachableSince } = threadFailureAction(
        processing(),
        context({ handler: () => response }),
      );
      expect(action.kind).toBe(kind);
      expect(action.reason).toBe(`uncaught processing error (${response}): processor blew up`);
      expect(unreachableSince).toBeUndefined();
      if (action.kind === 'replace') expect(action.delayMs).toBe(0);
    }
  });

  it('stops the client when it is no longer active, whatever the handler says', () => {
    for (const response of [
      StreamThreadExceptionResponse.REPLACE_THREAD,
      StreamThreadExceptionResponse.SHUTDOWN_APPLICATION,
    ]) {
      const { action } = threadFailureAction(
        processing(),
        context({ active: false, handler: () => response }),
      );
      expect(action.kind).toBe('shutdown-client');
    }
    // Not active: an unreachable cluster is not waited for either.
    const { action } = threadFailureAction(unreachable(), context({ active: false }));
    expect(action.kind).toBe('shutdown-client');
  });

  it('stops the client on a fenced instance id, wrapped or not, without asking the handler', () => {
    const handler = jest.fn(() => StreamThreadExceptionResponse.REPLACE_THREAD);
    const fenced = new FencedInstanceIdError('app', 'order-stats-0');
    for (const error of [
      fenced,
      new Error('join failed', { cause: fenced }),
      new AggregateError([new Error('other'), fenced], 'joinGroup failed 3 times.'),
    ]) {
      const { action } = threadFailureAction(error, context({ handler }));
      expect(action).toEqual({
        kind: 'shutdown-client',
        reason:
          "another process joined consumer group app with this member's group instance id 'order-stats-0': this client is fenced and stops (FENCED_INSTANCE_ID)",
      });
    }
    expect(handler).not.toHaveBeenCalled();
    expect(fenced).toMatchObject({ code: 'FENCED_INSTANCE_ID', retriable: false });
  });

  it('treats a handler that throws as SHUTDOWN_CLIENT', () => {
    const { action } = threadFailureAction(
      processing(),
      context({
        handler: () => {
          throw new Error('handler bug');
        },
      }),
    );
    expect(action.kind).toBe('shutdown-client');
    expect(action.reason).toContain(`(${StreamThreadExceptionResponse.SHUTDOWN_CLIENT})`);
  });
});
