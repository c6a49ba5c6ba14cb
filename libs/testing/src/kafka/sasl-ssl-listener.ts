import { existsSync, readFileSync } from 'node:fs';
import { BrokerToolError } from './broker-error';

/**
 * A SASL_SSL listener of the local broker, beside its PLAINTEXT one: TLS with the broker's
 * certificate from a PKCS12 keystore, SASL PLAIN and SCRAM-SHA-512. PLAIN users live in the
 * listener's JAAS configuration; SCRAM-SHA-512 users are created with Kafka's own storage tool
 * when the storage is formatted (`kafka-storage format --add-scram`), as on a KRaft cluster.
 * What `nest-streams-kafka start --sasl-ssl <file>` reads from its JSON file.
 */
export interface SaslSslListener {
  /** PKCS12 keystore with the broker's certificate (naming 127.0.0.1) and key. */
  readonly keystore: string;
  readonly keystorePassword: string;
  /** PLAIN users: name -> password. */
  readonly plainUsers: Readonly<Record<string, string>>;
  /** SCRAM-SHA-512 users: name -> password. */
  readonly scramUsers: Readonly<Record<string, string>>;
}

/** Names and secrets go into a properties file and a JAAS line: keep them plain. */
const SAFE = /^[A-Za-z0-9._-]+$/;

/**
 * Reads and checks a listener description (JSON).
 *
 * @throws BrokerToolError naming what is wrong (a missing keystore, an unsafe name).
 */
export function readSaslSslListener(file: string): SaslSslListener {
  let parsed: Partial<SaslSslListener>;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<SaslSslListener>;
  } catch (error) {
    throw new BrokerToolError(`Cannot read the SASL_SSL listener file ${file}: ${String(error)}`);
  }
  const { keystore, keystorePassword, plainUsers = {}, scramUsers = {} } = parsed;
  if (typeof keystore !== 'string' || !existsSync(keystore)) {
    throw new BrokerToolError(`${file}: keystore must name an existing PKCS12 file`);
  }
  const values: [string, unknown][] = [['keystorePassword', keystorePassword]];
  for (const [name, password] of Object.entries({ ...plainUsers, ...scramUsers })) {
    values.push(['user name', name], ['password', password]);
  }
  for (const [what, value] of values) {
    if (typeof value !== 'string' || !SAFE.test(value)) {
      throw new BrokerToolError(`${file}: every ${what} must be letters, digits, '.', '_' or '-'`);
    }
  }
  if (Object.keys(plainUsers).length + Object.keys(scramUsers).length === 0) {
    throw new BrokerToolError(`${file}: name at least one user (plainUsers, scramUsers)`);
  }
  return { keystore, keystorePassword: keystorePassword as string, plainUsers, scramUsers };
}

/** The broker properties of the listener (named `SASL_SSL`; its port is in `listeners`). */
export function saslSslProperties(listener: SaslSslListener): Record<string, string> {
  const plain = Object.entries(listener.plainUsers)
    .map(([user, password]) => ` user_${user}="${password}"`)
    .join('');
  return {
    'sasl.enabled.mechanisms': 'PLAIN,SCRAM-SHA-512',
    'listener.name.sasl_ssl.plain.sasl.jaas.config': `org.apache.kafka.common.security.plain.PlainLoginModule required${plain};`,
    'listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config':
      'org.apache.kafka.common.security.scram.ScramLoginModule required;',
    'listener.name.sasl_ssl.ssl.keystore.type': 'PKCS12',
    'listener.name.sasl_ssl.ssl.keystore.location': listener.keystore,
    'listener.name.sasl_ssl.ssl.keystore.password': listener.keystorePassword,
    'listener.name.sasl_ssl.ssl.client.auth': 'none',
  };
}

/** The `--add-scram` arguments of `kafka-storage format` creating the SCRAM users. */
export function scramFormatArgs(listener: SaslSslListener): string[] {
  return Object.entries(listener.scramUsers).flatMap(([name, password]) => [
    '--add-scram',
    `SCRAM-SHA-512=[name=${name},password=${password}]`,
  ]);
}
