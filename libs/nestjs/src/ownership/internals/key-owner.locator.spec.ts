import {
  BrokersUnreachableError,
  KafkaAuthenticationError,
  type KafkaStreams,
  KafkaStreamsState,
  KeyQueryMetadata,
  StateDirectoryLockedError,
  StreamsError,
  StreamsNotStartedError,
} from '@nest-streams/streams';
import type { StreamsDeclarations } from '../../discovery/internals/streams.explorer';
import { KafkaStreamsHost } from '../../client/internals/kafka-streams.host';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import { KeyOwnerLocator } from './key-owner.locator';

/** A locator over a client in `state`, with no owner known for any key. */
function locator(
  state: KafkaStreamsState,
  startupProblem?: StreamsError,
  lags: () => Promise<unknown> = async () => new Map(),
): KeyOwnerLocator {
  const streams = {
    state,
    startupProblem,
    allLocalStorePartitionLags: lags,
    queryMetadataForKey: () => KeyQueryMetadata.NOT_AVAILABLE,
    metadataForAllStreamsClients: () => [],
  } as unknown as KafkaStreams;
  const host = new KafkaStreamsHost();
  const declarations: StreamsDeclarations = {
    stores: new Map(),
    aggregations: [],
    topologyMethods: [],
  };
  host.set(streams, declarations);
  const settings = new StreamsModuleSettings({
    streams: {
      applicationId: 'app',
      bootstrapServers: ['127.0.0.1:1'],
      applicationServer: '127.0.0.1:8080',
    },
    security: { insecure: true },
  });
  return new KeyOwnerLocator(host, settings);
}

const errorOf = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('KeyOwnerLocator, when no owner is known', () => {
  const locked = new StateDirectoryLockedError('/s/app', 42, false);

  it.each([
    [
      'a start waiting on a cause',
      KafkaStreamsState.REBALANCING,
      locked,
      'this instance is not started yet: state directory /s/app is locked by process 42; stop that process or use another state.dir [STATE_DIR_LOCKED]',
    ],
    [
      'a failed start',
      KafkaStreamsState.ERROR,
      new BrokersUnreachableError(['10.0.0.9:9092'], 'connect ETIMEDOUT'),
      'this instance could not start: cannot reach the Kafka brokers 10.0.0.9:9092 (connect ETIMEDOUT): check that they run and that bootstrap.servers names them as this host reaches them [BROKERS_UNREACHABLE]',
    ],
    [
      'refused credentials',
      KafkaStreamsState.ERROR,
      new KafkaAuthenticationError('sasl', 'the brokers refused the SASL credentials of user u'),
      'this instance could not start: the brokers refused the SASL credentials of user u [KAFKA_AUTHENTICATION_FAILED]',
    ],
    [
      'a failed client',
      KafkaStreamsState.ERROR,
      undefined,
      "this instance's client failed (ERROR)",
    ],
    [
      'a stopped client',
      KafkaStreamsState.NOT_RUNNING,
      undefined,
      "this instance's client is stopped (NOT_RUNNING)",
    ],
  ] as const)('names %s, never a rebalance', (_name, state, problem, message) => {
    const error = errorOf(() => locator(state, problem).locate('stats-store', 'alice'));
    expect(error).toBeInstanceOf(StreamsNotStartedError);
    expect(error).toMatchObject({ message, code: 'STREAMS_NOT_STARTED', retriable: true });
  });

  it('leaves a rebalance of a running client to the routing decision', () => {
    const location = locator(KafkaStreamsState.REBALANCING).locate('stats-store', 'alice');
    expect(location.metadata.available).toBe(false);
  });
});

describe('KeyOwnerLocator.refreshLags', () => {
  it('waits at most its bound for a broker that does not answer, and asks it once meanwhile', async () => {
    // The changelog leader hung (SIGSTOP): ListOffsets waits for the client's request timeout.
    let asked = 0;
    let answer!: () => void;
    const owner = locator(KafkaStreamsState.RUNNING, undefined, () => {
      asked++;
      return new Promise<void>((resolve) => (answer = resolve));
    });
    const started = Date.now();
    const fresh = await Promise.all([
      owner.refreshLags(50),
      owner.refreshLags(50),
      owner.refreshLags(50),
    ]);
    const waited = Date.now() - started;
    expect(fresh).toEqual([false, false, false]); // the lags are only as old as the last ends
    expect(waited).toBeGreaterThanOrEqual(45);
    expect(waited).toBeLessThan(1_000);
    expect(asked).toBe(1);
    answer();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await owner.refreshLags(50)).toBe(false); // ended: the next read asks again
    expect(asked).toBe(2);
  });

  it('returns as soon as the broker answers, or refuses', async () => {
    const refused = locator(KafkaStreamsState.RUNNING, undefined, () =>
      Promise.reject(new Error('ECONNREFUSED')),
    );
    const started = Date.now();
    expect(await refused.refreshLags(5_000)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
    const answered = locator(KafkaStreamsState.RUNNING);
    expect(await answered.refreshLags(5_000)).toBe(true);
  });

  it('never vouches with ends read before the call: a read arriving during a lookup waits for the next', async () => {
    let asked = 0;
    const owner = locator(KafkaStreamsState.RUNNING, undefined, async () => {
      asked++;
      await new Promise((resolve) => setTimeout(resolve, 30));
      return new Map();
    });
    const first = owner.refreshLags(1_000);
    await new Promise((resolve) => setTimeout(resolve, 10)); // the first lookup is under way
    const [second, third] = await Promise.all([owner.refreshLags(1_000), owner.refreshLags(1_000)]);
    expect([await first, second, third]).toEqual([true, true, true]);
    expect(asked).toBe(2); // the two later reads shared the lookup that started after them
  });
});
