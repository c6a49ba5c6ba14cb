import { StreamsConfigError } from '../../errors/streams-config.error';
import { resolveStreamsConfig, type StreamsConfig } from '../../runtime/streams-config';
import { platformaticClientOptions } from './platformatic-client-options';

const base: StreamsConfig = {
  applicationId: 'options-spec',
  bootstrapServers: ['kafka-0:9093', 'kafka-1:9093'],
  kafkaClient: '@platformatic/kafka',
};

function optionsOf(kafka: StreamsConfig['kafka'], clientId?: string) {
  return platformaticClientOptions(resolveStreamsConfig({ ...base, clientId, kafka }));
}

describe('platformaticClientOptions', () => {
  it('takes the brokers and the client id (the application id unless set)', () => {
    expect(optionsOf(undefined)).toEqual({
      clientId: 'options-spec',
      bootstrapBrokers: ['kafka-0:9093', 'kafka-1:9093'],
      requestTimeout: 30_000,
      retryDelay: expect.any(Function),
    });
    expect(optionsOf(undefined, 'orders').clientId).toBe('orders');
  });

  it('maps ssl, timeouts and the retry count and delay', () => {
    expect(
      optionsOf({
        ssl: { ca: ['CA'], servername: 'kafka' },
        connectionTimeout: 2_000,
        requestTimeout: 40_000,
        retry: { retries: 3, initialRetryTime: 500 },
      }),
    ).toEqual({
      clientId: 'options-spec',
      bootstrapBrokers: ['kafka-0:9093', 'kafka-1:9093'],
      tls: { ca: ['CA'], servername: 'kafka' },
      connectTimeout: 2_000,
      requestTimeout: 40_000,
      retries: 3,
      retryDelay: 500,
    });
    expect(optionsOf({ ssl: true }).tls).toEqual({});
    // Unless told, platformatic's retries pause as the engine's policy: 100 ms doubling to 1 s.
    const delay = optionsOf(undefined).retryDelay as (...args: unknown[]) => number;
    const pauses = [1, 2, 3, 4, 5, 6].map((attempt) => delay(undefined, 'metadata', attempt));
    pauses.forEach((pause, i) => {
      const nominal = Math.min(100 * 2 ** i, 1000);
      expect(pause).toBeGreaterThanOrEqual(Math.min(nominal * 0.8, 1000));
      expect(pause).toBeLessThanOrEqual(Math.min(nominal * 1.2, 1000));
    });
    expect(optionsOf({ ssl: false }).tls).toBeUndefined();
  });

  it.each([
    ['plain', 'PLAIN'],
    ['scram-sha-256', 'SCRAM-SHA-256'],
    ['scram-sha-512', 'SCRAM-SHA-512'],
  ] as const)('maps the SASL mechanism %s to %s with its credentials', (mechanism, expected) => {
    const sasl = { mechanism, username: 'u', password: 'p' } as NonNullable<
      NonNullable<StreamsConfig['kafka']>['sasl']
    >;
    expect(optionsOf({ sasl }).sasl).toEqual({
      mechanism: expected,
      username: 'u',
      password: 'p',
    });
  });

  it('asks an oauthbearer provider for the token at each authentication', async () => {
    let calls = 0;
    const sasl = optionsOf({
      sasl: {
        mechanism: 'oauthbearer',
        oauthBearerProvider: () => Promise.resolve({ value: `token-${++calls}` }),
      },
    }).sasl;
    expect(sasl?.mechanism).toBe('OAUTHBEARER');
    const token = sasl?.token as () => Promise<string>;
    expect(await token()).toBe('token-1');
    expect(await token()).toBe('token-2');
  });

  it('refuses the aws SASL mechanism', () => {
    const kafka: StreamsConfig['kafka'] = {
      sasl: {
        mechanism: 'aws',
        authorizationIdentity: 'a',
        accessKeyId: 'k',
        secretAccessKey: 's',
      },
    };
    expect(() => optionsOf(kafka)).toThrow(
      new StreamsConfigError(
        "kafka.sasl.mechanism 'aws' is not supported by @platformatic/kafka (it has plain, scram-sha-256, scram-sha-512 and oauthbearer): use kafkaClient 'kafkajs' for it",
      ),
    );
  });

  it.each([
    ['kafka.logLevel', { logLevel: 4 }],
    ['kafka.logCreator', { logCreator: () => () => undefined }],
    ['kafka.authenticationTimeout', { authenticationTimeout: 1_000 }],
    ['kafka.reauthenticationThreshold', { reauthenticationThreshold: 1_000 }],
    ['kafka.enforceRequestTimeout', { enforceRequestTimeout: true }],
    ['kafka.retry.maxRetryTime', { retry: { maxRetryTime: 30_000 } }],
    ['kafka.retry.factor', { retry: { retries: 2, factor: 0.2 } }],
    ['kafka.retry.multiplier', { retry: { multiplier: 2 } }],
  ])('refuses %s, which it cannot honour', (setting, kafka) => {
    expect(() => optionsOf(kafka as StreamsConfig['kafka'])).toThrow(
      new StreamsConfigError(
        `${setting} is a kafkajs setting @platformatic/kafka cannot honour: remove it, or use kafkaClient 'kafkajs'`,
      ),
    );
  });
});
