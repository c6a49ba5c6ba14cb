import { BrokerAuthenticationError } from '../errors/broker-authentication.error';
import { BrokersUnreachableError } from '../errors/brokers-unreachable.error';
import type { StreamsError } from '../errors/streams.error';
import type { ClusterAdmin } from './cluster-admin';
import { connectAdmin, typedConnectionError } from './cluster-connection';

/** kafkajs' errors as its client throws them (name, message, wrapped original). */
function kafkajsError(name: string, message: string, originalError?: unknown): Error {
  const error = new Error(message) as Error & { originalError?: unknown; retriable?: boolean };
  error.name = name;
  if (originalError) error.originalError = originalError;
  return error;
}
const refused = () =>
  kafkajsError(
    'KafkaJSNumberOfRetriesExceeded',
    'Connection error: connect ECONNREFUSED 10.0.0.9:9092',
    kafkajsError('KafkaJSConnectionError', 'Connection error: connect ECONNREFUSED 10.0.0.9:9092'),
  );

/** An admin whose `connect()` fails with `failures` in turn, then succeeds. */
function admin(failures: unknown[]): ClusterAdmin & { attempts: number } {
  const fake = {
    attempts: 0,
    connect: async () => {
      const failure = failures[fake.attempts++];
      if (failure) throw failure;
    },
  };
  return fake as unknown as ClusterAdmin & { attempts: number };
}

describe('connectAdmin', () => {
  const brokers = ['10.0.0.9:9092', '10.0.0.10:9092'];
  let clock: number;
  const warnings: string[] = [];
  const debugs: string[] = [];
  const logger = {
    error: () => undefined,
    warn: (m: string) => void warnings.push(m),
    info: () => undefined,
    debug: (m: string) => void debugs.push(m),
  };
  beforeEach(() => {
    clock = 0;
    warnings.length = 0;
    debugs.length = 0;
  });

  it('retries an unreachable cluster, telling each problem, until it connects', async () => {
    const problems: (StreamsError | undefined)[] = [];
    const client = admin([refused(), refused()]);
    await connectAdmin(client, {
      brokers,
      taskTimeoutMs: 60_000,
      logger,
      retryDelayMs: 1,
      now: () => (clock += 5_000),
      onProblem: (p) => problems.push(p),
    });
    expect(client.attempts).toBe(3);
    expect(problems.map((p) => p?.code)).toEqual([
      'BROKERS_UNREACHABLE',
      'BROKERS_UNREACHABLE',
      undefined,
    ]);
    // Logged once at warn, with what to do; the later attempts at debug.
    expect(warnings).toEqual([
      'cannot reach the Kafka brokers 10.0.0.9:9092, 10.0.0.10:9092 (Connection error: connect ECONNREFUSED 10.0.0.9:9092): check that they run and that bootstrap.servers names them as this host reaches them; retrying (attempt 1, 5 s of task.timeout.ms 60 s)',
    ]);
    expect(debugs).toEqual([
      'cannot reach the Kafka brokers 10.0.0.9:9092, 10.0.0.10:9092 (Connection error: connect ECONNREFUSED 10.0.0.9:9092): check that they run and that bootstrap.servers names them as this host reaches them; retrying (attempt 2, 10 s of task.timeout.ms 60 s)',
    ]);
  });

  it('gives up with BrokersUnreachableError once task.timeout.ms has passed', async () => {
    const client = admin(Array.from({ length: 10 }, refused));
    const error = await connectAdmin(client, {
      brokers,
      taskTimeoutMs: 12_000,
      logger,
      retryDelayMs: 1,
      now: () => (clock += 5_000),
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BrokersUnreachableError);
    expect(error).toMatchObject({ code: 'BROKERS_UNREACHABLE', retriable: true, brokers });
    expect(client.attempts).toBe(3); // at 5 s, 10 s and 15 s of 12 s
  });

  it('stops trying when the client closes', async () => {
    const client = admin(Array.from({ length: 10 }, refused));
    let stopped = false;
    const error = await connectAdmin(client, {
      brokers,
      taskTimeoutMs: 300_000,
      logger: { ...logger, warn: () => void (stopped = true) },
      retryDelayMs: 1,
      stopped: () => stopped,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BrokersUnreachableError);
    expect(client.attempts).toBe(1);
  });

  it('fails at once when the brokers refuse the credentials', async () => {
    const sasl = kafkajsError(
      'KafkaJSSASLAuthenticationError',
      'SASL SCRAM SHA512 authentication failed: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512',
    );
    const client = admin([sasl]);
    const error = await connectAdmin(client, {
      brokers,
      taskTimeoutMs: 60_000,
      logger,
      retryDelayMs: 1,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(client.attempts).toBe(1);
    expect(error).toBeInstanceOf(BrokerAuthenticationError);
    expect(error).toMatchObject({ code: 'BROKER_AUTHENTICATION_FAILED', retriable: false });
    expect((error as Error).message).toBe(
      "the Kafka brokers 10.0.0.9:9092, 10.0.0.10:9092 refused this client's credentials (SASL SCRAM SHA512 authentication failed: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512): check the kafka.sasl setting",
    );
  });

  it('passes any other error on as it is', () => {
    const other = new Error('something else');
    expect(typedConnectionError(other, brokers)).toBe(other);
  });
});
