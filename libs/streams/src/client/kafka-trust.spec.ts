import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import {
  KafkaJSConnectionError,
  KafkaJSNumberOfRetriesExceeded,
  KafkaJSSASLAuthenticationError,
} from 'kafkajs';
import { TestPki } from '../../../../tools/tls/test-pki';
import { BrokerAuthenticationError } from '../errors/broker-authentication.error';
import { KafkaAuthenticationError } from '../errors/kafka-authentication.error';
import { checkBrokerCertificate, kafkaAuthenticationError } from './kafka-trust';

const brokers = ['127.0.0.1:9094'];

describe('kafkaAuthenticationError', () => {
  it('turns refused SASL credentials into one typed, non-retriable error naming the user', () => {
    // kafkajs' typings omit the constructor's message argument.
    const SaslError = KafkaJSSASLAuthenticationError as unknown as new (message: string) => Error;
    const sasl = new SaslError(
      'SASL SCRAM SHA512 authentication failed: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512',
    );
    const error = kafkaAuthenticationError(sasl, {
      bootstrapServers: brokers,
      kafka: { sasl: { mechanism: 'scram-sha-512', username: 'bob', password: 'nope' } },
    });
    expect(error).toBeInstanceOf(KafkaAuthenticationError);
    expect(error).toMatchObject({
      code: 'KAFKA_AUTHENTICATION_FAILED',
      retriable: false,
      reason: 'sasl',
    });
    expect(error?.message).toBe(
      "the Kafka cluster (127.0.0.1:9094) refused the SASL credentials of user 'bob' (SCRAM-SHA-512): SASL SCRAM SHA512 authentication failed: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512. Check streams.kafka.sasl (mechanism, username, password) against the users the cluster knows",
    );
    expect(error?.message).not.toContain('nope');
  });

  it("turns the ClusterAdmin port's BrokerAuthenticationError (any client's) into one", () => {
    const refused = new BrokerAuthenticationError(brokers, 'SASL authentication failed', {
      cause: new Error('Authentication failed during authentication due to invalid credentials'),
    });
    const error = kafkaAuthenticationError(refused, {
      bootstrapServers: brokers,
      kafka: { sasl: { mechanism: 'plain', username: 'bob', password: 'nope' } },
    });
    expect(error).toMatchObject({ code: 'KAFKA_AUTHENTICATION_FAILED', reason: 'sasl' });
    expect(error?.message).toBe(
      "the Kafka cluster (127.0.0.1:9094) refused the SASL credentials of user 'bob' (PLAIN): the Kafka brokers 127.0.0.1:9094 refused this client's credentials (SASL authentication failed): check the kafka.sasl setting. Check streams.kafka.sasl (mechanism, username, password) against the users the cluster knows",
    );
  });

  it('turns an untrusted broker certificate into one, also after kafkajs retried', () => {
    const untrusted = new KafkaJSConnectionError(
      'Connection error: self-signed certificate in certificate chain',
      { code: 'SELF_SIGNED_CERT_IN_CHAIN' },
    );
    const exhausted = new KafkaJSNumberOfRetriesExceeded(untrusted, {
      retryCount: 5,
      retryTime: 1,
    });
    const error = kafkaAuthenticationError(exhausted, {
      bootstrapServers: brokers,
      kafka: undefined,
    });
    expect(error).toMatchObject({ reason: 'tls', code: 'KAFKA_AUTHENTICATION_FAILED' });
    expect(error?.message).toContain(
      '(SELF_SIGNED_CERT_IN_CHAIN: Connection error: self-signed certificate in certificate chain)',
    );
  });

  it('leaves every other error alone', () => {
    const refused = new KafkaJSConnectionError('Connection error: connect ECONNREFUSED', {
      code: 'ECONNREFUSED',
    });
    expect(
      kafkaAuthenticationError(refused, { bootstrapServers: brokers, kafka: undefined }),
    ).toBeUndefined();
    expect(
      kafkaAuthenticationError(new Error('x'), { bootstrapServers: brokers, kafka: undefined }),
    ).toBeUndefined();
  });
});

describe('checkBrokerCertificate', () => {
  let dir: string;
  let pki: TestPki;
  let server: Server;
  let address: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kafka-trust-spec-'));
    pki = TestPki.create(dir);
    const { cert, key } = pki.issue('broker', ['127.0.0.1', 'localhost']);
    server = createServer({ cert, key }, (socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes a broker whose certificate the configured CA signed, and skips without TLS', async () => {
    await expect(
      checkBrokerCertificate({ bootstrapServers: [address], kafka: { ssl: { ca: [pki.ca] } } }),
    ).resolves.toBeUndefined();
    await expect(
      checkBrokerCertificate({ bootstrapServers: [address], kafka: {} }),
    ).resolves.toBeUndefined();
  });

  it('fails at once, typed, for a broker certificate no configured CA signed', async () => {
    const started = Date.now();
    const error = await checkBrokerCertificate({
      bootstrapServers: [address],
      kafka: { ssl: true },
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KafkaAuthenticationError);
    expect(error).toMatchObject({ reason: 'tls' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('leaves an unreachable broker to kafkajs', async () => {
    const closed = createNetServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(
      checkBrokerCertificate({ bootstrapServers: [`127.0.0.1:${port}`], kafka: { ssl: true } }),
    ).resolves.toBeUndefined();
  });
});
