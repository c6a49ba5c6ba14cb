import { ClusterFaultTimeoutError } from '../errors/cluster-fault-timeout.error';
import { RecordCollectorSendError } from '../errors/record-collector-send.error';
import { defaultUncaughtExceptionHandler } from './kafka-streams-options';
import { StreamThreadExceptionResponse } from './kafka-streams-state';

describe('defaultUncaughtExceptionHandler', () => {
  const timeout = new ClusterFaultTimeoutError('produce', 'delivery.timeout.ms', 120_000, 9, 'x');

  it('replaces the thread for a transient cluster fault that outlasted its bound', () => {
    expect(defaultUncaughtExceptionHandler(timeout)).toBe(
      StreamThreadExceptionResponse.REPLACE_THREAD,
    );
    // As the cause of the engine's error about the records it could not send.
    const send = new RecordCollectorSendError('sending 2 records failed', { cause: timeout });
    expect(defaultUncaughtExceptionHandler(send)).toBe(
      StreamThreadExceptionResponse.REPLACE_THREAD,
    );
  });

  it('shuts the client down for anything else', () => {
    expect(defaultUncaughtExceptionHandler(new Error('a processor failed'))).toBe(
      StreamThreadExceptionResponse.SHUTDOWN_CLIENT,
    );
  });
});
