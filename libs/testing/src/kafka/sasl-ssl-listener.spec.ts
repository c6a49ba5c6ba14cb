import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrokerToolError } from './broker-error';
import { readSaslSslListener, scramFormatArgs } from './sasl-ssl-listener';
import { serverProperties } from './server-properties';

describe('the SASL_SSL listener of the local broker', () => {
  let dir: string;
  let keystore: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sasl-ssl-listener-'));
    keystore = join(dir, 'broker.p12');
    writeFileSync(keystore, 'not read here');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const file = (content: unknown): string => {
    const path = join(dir, 'listener.json');
    writeFileSync(path, JSON.stringify(content));
    return path;
  };
  const listener = () => ({
    keystore,
    keystorePassword: 'store-pw',
    plainUsers: { alice: 'alice-pw' },
    scramUsers: { bob: 'bob-pw', carol: 'carol-pw' },
  });

  it('adds a SASL_SSL listener beside PLAINTEXT, with PLAIN users in its JAAS line', () => {
    const text = serverProperties({
      brokerPort: 19092,
      controllerPort: 19093,
      logDir: '/tmp/k',
      saslSsl: { port: 19094, listener: readSaslSslListener(file(listener())) },
    });
    const props = Object.fromEntries(
      text
        .trim()
        .split('\n')
        .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
    );
    expect(props).toMatchObject({
      listeners:
        'PLAINTEXT://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093,SASL_SSL://127.0.0.1:19094',
      'advertised.listeners': 'PLAINTEXT://127.0.0.1:19092,SASL_SSL://127.0.0.1:19094',
      'listener.security.protocol.map':
        'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_SSL:SASL_SSL',
      'inter.broker.listener.name': 'PLAINTEXT',
      'sasl.enabled.mechanisms': 'PLAIN,SCRAM-SHA-512',
      'listener.name.sasl_ssl.plain.sasl.jaas.config':
        'org.apache.kafka.common.security.plain.PlainLoginModule required user_alice="alice-pw";',
      'listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config':
        'org.apache.kafka.common.security.scram.ScramLoginModule required;',
      'listener.name.sasl_ssl.ssl.keystore.type': 'PKCS12',
      'listener.name.sasl_ssl.ssl.keystore.location': keystore,
      'listener.name.sasl_ssl.ssl.keystore.password': 'store-pw',
    });
  });

  it('creates the SCRAM users with the storage tool', () => {
    expect(scramFormatArgs(listener())).toEqual([
      '--add-scram',
      'SCRAM-SHA-512=[name=bob,password=bob-pw]',
      '--add-scram',
      'SCRAM-SHA-512=[name=carol,password=carol-pw]',
    ]);
  });

  it.each([
    [{ keystore: '/nowhere.p12' }, /keystore must name an existing PKCS12 file/],
    [{ plainUsers: { 'al"ice': 'x' } }, /every user name must be letters, digits/],
    [{ scramUsers: { bob: 'pw]' } }, /every password must be letters, digits/],
    [{ plainUsers: {}, scramUsers: {} }, /name at least one user/],
  ])('refuses %j', (change, message) => {
    expect(() => readSaslSslListener(file({ ...listener(), ...change }))).toThrow(BrokerToolError);
    expect(() => readSaslSslListener(file({ ...listener(), ...change }))).toThrow(message);
  });
});
