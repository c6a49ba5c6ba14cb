import { kafkaClientConfig } from './worker-support';

describe('kafkaClientConfig (--kafka-client)', () => {
  it('runs kafkajs when the option is absent, whatever the engine defaults to', () => {
    // The harness passes no option for kafkajs (clientArgs), so that a --baseline checkout older
    // than the option runs: the worker must not fall back on the engine's default client.
    expect(kafkaClientConfig(undefined)).toEqual({ kafkaClient: 'kafkajs' });
    expect(kafkaClientConfig('kafkajs')).toEqual({ kafkaClient: 'kafkajs' });
    expect(kafkaClientConfig('@platformatic/kafka')).toEqual({
      kafkaClient: '@platformatic/kafka',
    });
  });

  it('refuses another client', () => {
    expect(() => kafkaClientConfig('rdkafka')).toThrow(
      '--kafka-client must be kafkajs or @platformatic/kafka, got rdkafka',
    );
  });
});
