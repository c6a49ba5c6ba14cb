import { orderStatsSecurity } from './order-stats.security';

const files: Record<string, string> = {
  '/pem/ca.pem': 'CA PEM',
  '/pem/client.pem': 'CLIENT CERT',
  '/pem/client.key': 'CLIENT KEY',
};
const read = (path: string): string => {
  const text = files[path];
  if (text === undefined) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
  return text;
};
const security = (env: NodeJS.ProcessEnv) => orderStatsSecurity(env, read);

describe('orderStatsSecurity', () => {
  it('talks PLAINTEXT to Kafka, without TLS between instances, by default', () => {
    expect(security({})).toEqual({ kafka: {}, clusterTls: undefined, insecure: false });
  });

  it('maps Kafka security.protocol and sasl.mechanism to the client settings', () => {
    expect(
      security({
        KAFKA_SECURITY_PROTOCOL: 'SASL_SSL',
        KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
        KAFKA_SASL_USERNAME: 'orders',
        KAFKA_SASL_PASSWORD: 'pw',
        KAFKA_SSL_CA_FILE: '/pem/ca.pem',
      }).kafka,
    ).toEqual({
      ssl: { ca: ['CA PEM'] },
      sasl: { mechanism: 'scram-sha-512', username: 'orders', password: 'pw' },
    });
    expect(
      security({
        KAFKA_SECURITY_PROTOCOL: 'SASL_PLAINTEXT',
        KAFKA_SASL_MECHANISM: 'PLAIN',
        KAFKA_SASL_USERNAME: 'u',
        KAFKA_SASL_PASSWORD: 'p',
      }).kafka,
    ).toEqual({ sasl: { mechanism: 'plain', username: 'u', password: 'p' } });
    expect(
      security({
        KAFKA_SECURITY_PROTOCOL: 'SSL',
        KAFKA_SSL_CERT_FILE: '/pem/client.pem',
        KAFKA_SSL_KEY_FILE: '/pem/client.key',
      }).kafka,
    ).toEqual({ ssl: { cert: 'CLIENT CERT', key: 'CLIENT KEY' } });
  });

  it('reads TLS between the instances from three files', () => {
    expect(
      security({
        CLUSTER_TLS_CERT_FILE: '/pem/client.pem',
        CLUSTER_TLS_KEY_FILE: '/pem/client.key',
        CLUSTER_TLS_CA_FILE: '/pem/ca.pem',
        SECURITY_INSECURE: 'true',
      }),
    ).toEqual({
      kafka: {},
      clusterTls: { cert: 'CLIENT CERT', key: 'CLIENT KEY', ca: 'CA PEM' },
      insecure: true,
    });
  });

  it.each([
    [
      { KAFKA_SECURITY_PROTOCOL: 'TLS' },
      "KAFKA_SECURITY_PROTOCOL must be one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL, got 'TLS'",
    ],
    [
      { KAFKA_SECURITY_PROTOCOL: 'SASL_SSL', KAFKA_SASL_MECHANISM: 'GSSAPI' },
      "KAFKA_SASL_MECHANISM must be one of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 with SASL_SSL, got 'GSSAPI'",
    ],
    [
      {
        KAFKA_SECURITY_PROTOCOL: 'SASL_SSL',
        KAFKA_SASL_MECHANISM: 'PLAIN',
        KAFKA_SASL_USERNAME: 'u',
      },
      'SASL_SSL needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD',
    ],
    [{ KAFKA_SASL_USERNAME: 'u' }, 'KAFKA_SASL_* is set, but KAFKA_SECURITY_PROTOCOL is PLAINTEXT'],
    [
      { KAFKA_SSL_CA_FILE: '/pem/ca.pem' },
      'KAFKA_SSL_* files are set, but KAFKA_SECURITY_PROTOCOL is PLAINTEXT',
    ],
    [
      { KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_CERT_FILE: '/pem/client.pem' },
      'KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE go together (a client certificate)',
    ],
    [
      { KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_CA_FILE: '/nowhere.pem' },
      "KAFKA_SSL_CA_FILE names a file that cannot be read (/nowhere.pem): ENOENT: no such file or directory, open '/nowhere.pem'",
    ],
    [
      { CLUSTER_TLS_CERT_FILE: '/pem/client.pem' },
      'CLUSTER_TLS_CERT_FILE, CLUSTER_TLS_KEY_FILE and CLUSTER_TLS_CA_FILE go together (TLS between the instances)',
    ],
    [{ SECURITY_INSECURE: 'yes' }, "SECURITY_INSECURE must be true or false, got 'yes'"],
  ])('refuses %j, naming the variable', (env, message) => {
    expect(() => security(env)).toThrow(message);
  });
});
