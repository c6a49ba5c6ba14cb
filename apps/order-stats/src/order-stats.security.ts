import { readFileSync } from 'node:fs';
import type { StreamsEngineOptions, StreamsTlsOptions } from '@nest-streams/nestjs';

/** Kafka's `security.protocol` values (`KAFKA_SECURITY_PROTOCOL`). */
export const KAFKA_SECURITY_PROTOCOLS = ['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL'] as const;
/** Kafka's `sasl.mechanism` values the client supports (`KAFKA_SASL_MECHANISM`). */
export const KAFKA_SASL_MECHANISMS = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const;

/** The Kafka client's TLS and SASL settings (the module's `streams.kafka`). */
export type KafkaClientSecurity = Pick<NonNullable<StreamsEngineOptions['kafka']>, 'ssl' | 'sasl'>;

/** What the example application reads for security from its environment. */
export interface OrderStatsSecurity {
  /** How the application talks to Kafka: TLS and SASL settings (empty for PLAINTEXT). */
  readonly kafka: KafkaClientSecurity;
  /** TLS between the instances (`CLUSTER_TLS_CERT_FILE`, `_KEY_FILE`, `_CA_FILE`), if set. */
  readonly clusterTls: StreamsTlsOptions | undefined;
  /** `SECURITY_INSECURE=true`: start several instances without `FORWARDING_SECRET` (local only). */
  readonly insecure: boolean;
}

/** The environment variables read here. */
export const SECURITY_ENVIRONMENT = [
  'KAFKA_SECURITY_PROTOCOL',
  'KAFKA_SASL_MECHANISM',
  'KAFKA_SASL_USERNAME',
  'KAFKA_SASL_PASSWORD',
  'KAFKA_SSL_CA_FILE',
  'KAFKA_SSL_CERT_FILE',
  'KAFKA_SSL_KEY_FILE',
  'CLUSTER_TLS_CERT_FILE',
  'CLUSTER_TLS_KEY_FILE',
  'CLUSTER_TLS_CA_FILE',
  'SECURITY_INSECURE',
] as const;

/**
 * Reads the security settings from the environment, with Kafka's own names for the protocol
 * and mechanism, and the PEM files they name.
 *
 * @throws Error naming the variable when a value is invalid, a required one is missing (SASL
 *   without a user), or a file cannot be read: fix the environment.
 */
export function orderStatsSecurity(
  env: NodeJS.ProcessEnv,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): OrderStatsSecurity {
  const file = (name: string): string | undefined => {
    const path = env[name];
    if (!path) return undefined;
    try {
      return readFile(path);
    } catch (error) {
      throw new Error(
        `${name} names a file that cannot be read (${path}): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  const insecure = env.SECURITY_INSECURE ?? 'false';
  if (insecure !== 'true' && insecure !== 'false') {
    throw new Error(`SECURITY_INSECURE must be true or false, got '${insecure}'`);
  }
  return {
    kafka: kafkaSecurity(env, file),
    clusterTls: clusterTls(file),
    insecure: insecure === 'true',
  };
}

function kafkaSecurity(
  env: NodeJS.ProcessEnv,
  file: (name: string) => string | undefined,
): KafkaClientSecurity {
  const protocol = env.KAFKA_SECURITY_PROTOCOL || 'PLAINTEXT';
  if (!(KAFKA_SECURITY_PROTOCOLS as readonly string[]).includes(protocol)) {
    throw new Error(
      `KAFKA_SECURITY_PROTOCOL must be one of ${KAFKA_SECURITY_PROTOCOLS.join(', ')}, got '${protocol}'`,
    );
  }
  const tls = protocol === 'SSL' || protocol === 'SASL_SSL';
  const sasl = protocol.startsWith('SASL_');
  const ca = file('KAFKA_SSL_CA_FILE');
  const cert = file('KAFKA_SSL_CERT_FILE');
  const key = file('KAFKA_SSL_KEY_FILE');
  if (!tls && (ca || cert || key)) {
    throw new Error(`KAFKA_SSL_* files are set, but KAFKA_SECURITY_PROTOCOL is ${protocol}`);
  }
  if ((cert === undefined) !== (key === undefined)) {
    throw new Error(
      'KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE go together (a client certificate)',
    );
  }
  const security: { -readonly [K in keyof KafkaClientSecurity]: KafkaClientSecurity[K] } = {};
  if (tls) {
    security.ssl = {
      ...(ca ? { ca: [ca] } : {}),
      ...(cert && key ? { cert, key } : {}),
    };
  }
  if (sasl) {
    const mechanism = env.KAFKA_SASL_MECHANISM ?? '';
    if (!(KAFKA_SASL_MECHANISMS as readonly string[]).includes(mechanism)) {
      throw new Error(
        `KAFKA_SASL_MECHANISM must be one of ${KAFKA_SASL_MECHANISMS.join(', ')} with ${protocol}, got '${mechanism}'`,
      );
    }
    const username = env.KAFKA_SASL_USERNAME;
    const password = env.KAFKA_SASL_PASSWORD;
    if (!username || !password) {
      throw new Error(`${protocol} needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD`);
    }
    const lower = mechanism.toLowerCase() as 'plain' | 'scram-sha-256' | 'scram-sha-512';
    security.sasl = { mechanism: lower, username, password } as KafkaClientSecurity['sasl'];
  } else if (env.KAFKA_SASL_MECHANISM || env.KAFKA_SASL_USERNAME || env.KAFKA_SASL_PASSWORD) {
    throw new Error(`KAFKA_SASL_* is set, but KAFKA_SECURITY_PROTOCOL is ${protocol}`);
  }
  return security;
}

function clusterTls(file: (name: string) => string | undefined): StreamsTlsOptions | undefined {
  const cert = file('CLUSTER_TLS_CERT_FILE');
  const key = file('CLUSTER_TLS_KEY_FILE');
  const ca = file('CLUSTER_TLS_CA_FILE');
  if (cert === undefined && key === undefined && ca === undefined) return undefined;
  if (cert === undefined || key === undefined || ca === undefined) {
    throw new Error(
      'CLUSTER_TLS_CERT_FILE, CLUSTER_TLS_KEY_FILE and CLUSTER_TLS_CA_FILE go together (TLS between the instances)',
    );
  }
  return { cert, key, ca };
}
