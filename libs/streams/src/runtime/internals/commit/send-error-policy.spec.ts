import { HandlerResponse, retryOnProductionError } from '../../exception-handlers';
import { resolveStreamsConfig } from '../../streams-config';
import { isRetriableSendError, sendErrorPolicy } from './send-error-policy';

const failure = (error: unknown) => ({
  error,
  attempts: 1,
  partitions: [
    {
      topic: 'out',
      partition: 3,
      records: [{ key: Buffer.from('k'), value: Buffer.from('v'), timestamp: 1 }],
    },
  ],
});
const retriable = Object.assign(new Error('leader moved'), { retriable: true });

describe('sendErrorPolicy: the production handler on send errors', () => {
  const config = (
    productionExceptionHandler?: Parameters<
      typeof resolveStreamsConfig
    >[0]['productionExceptionHandler'],
  ) =>
    resolveStreamsConfig({
      applicationId: 'app',
      bootstrapServers: ['b:1'],
      productionExceptionHandler,
    });

  it('fails by default (Kafka Streams: fail on any production error)', () => {
    expect(sendErrorPolicy(config(), () => undefined)(failure(retriable))).toBe('fail');
  });

  it('retries a retriable error on RETRY, fails a non-retriable one with a warning', () => {
    const warnings: string[] = [];
    const policy = sendErrorPolicy(config(retryOnProductionError(() => undefined)), (m) =>
      warnings.push(m),
    );
    expect(policy(failure(new Error('wrapped', { cause: retriable })))).toBe('retry');
    const custom = sendErrorPolicy(config({ handle: () => HandlerResponse.RETRY }), (m) =>
      warnings.push(m),
    );
    expect(custom(failure(new Error('record too large')))).toBe('fail');
    expect(warnings).toEqual([
      'the production handler answered RETRY to a non-retriable send error (record too large): treated as FAIL',
    ]);
  });

  it('hands the handler the batch: kind send, first record, partition, count, retriable', () => {
    const seen: unknown[] = [];
    const policy = sendErrorPolicy(
      config({
        handle: (record) => {
          seen.push(record);
          return HandlerResponse.CONTINUE;
        },
      }),
      () => undefined,
    );
    expect(policy(failure(retriable))).toBe('continue');
    expect(seen).toEqual([
      {
        topic: 'out',
        partition: 3,
        key: Buffer.from('k'),
        value: Buffer.from('v'),
        kind: 'send',
        records: 1,
        retriable: true,
      },
    ]);
    expect(isRetriableSendError(new Error('x'))).toBe(false);
  });
});
