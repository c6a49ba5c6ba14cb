import { createHash, createHmac } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import { StreamsModuleConfigError } from '../../errors/streams-module-config.error';
import type {
  StreamsSecurityOptions,
  StreamsTlsOptions,
} from '../streams-module-options.interface';

/** The resolved `security.tls`: what the query server, its clients and the forwarder use. */
export interface InstanceTlsSettings {
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
  readonly passphrase?: string;
  readonly ca: (string | Buffer)[];
}

/**
 * The TLS options of a connection between two instances, at either end (the query server and
 * its clients, the forwarder): this instance's certificate and key, the cluster's CA, TLS 1.2
 * or later.
 */
export function instanceTlsOptions(tls: InstanceTlsSettings): InstanceTlsSettings & {
  readonly minVersion: 'TLSv1.2';
} {
  const { cert, key, passphrase, ca } = tls;
  return { cert, key, passphrase, ca, minVersion: 'TLSv1.2' };
}

/** The resolved `security` options. */
export interface SecuritySettings {
  /**
   * Keys of the HMAC of every message between instances (queries, their answers, the hop
   * tokens of forwarded requests), one per cluster secret in the order given: the first
   * signs, any of them verifies (a rotation, see `security.clusterSecret`).
   */
  readonly messageKeys: readonly Buffer[];
  /**
   * SHA-256 of each cluster secret: what a bearer secret is compared with (the cluster page's
   * key look-up on the application's port). Empty without a cluster secret.
   */
  readonly secretDigests: readonly Buffer[];
  /** How far a message's timestamp may be from the receiver's clock, in ms. */
  readonly replayWindowMs: number;
  /** True when no cluster secret is set: the keys derive from the application id. */
  readonly derivedKey: boolean;
  /** TLS between the instances, when certificates are configured. */
  readonly tls: InstanceTlsSettings | undefined;
}

/** Minimum length of `security.clusterSecret`. */
const MIN_SECRET_LENGTH = 16;

/**
 * Resolves `security`. `worksWithOthers` is true when the instance advertises itself to other
 * instances (`streams.applicationServer`) or serves them queries (`queries.remote`): then a
 * cluster secret is required, unless `security.insecure` says otherwise.
 *
 * @throws StreamsModuleConfigError naming the option: a missing secret where one is needed, a
 *   short secret, a bad replay window, unusable TLS material. Fix the option; never retriable.
 */
export function securitySettings(
  options: StreamsSecurityOptions | undefined,
  applicationId: string,
  worksWithOthers: boolean,
): SecuritySettings {
  const security = options ?? {};
  const secrets = clusterSecrets(security.clusterSecret);
  if (security.insecure !== undefined && typeof security.insecure !== 'boolean') {
    throw new StreamsModuleConfigError(
      `security.insecure must be true or false, got ${String(security.insecure)}`,
    );
  }
  if (secrets.length === 0 && worksWithOthers && security.insecure !== true) {
    throw new StreamsModuleConfigError(
      'security.clusterSecret is not set, but this instance works with other instances ' +
        '(streams.applicationServer or queries.remote is set): set security.clusterSecret to a ' +
        `random secret of ${MIN_SECRET_LENGTH}+ characters shared by every instance (e.g. from a ` +
        'Kubernetes Secret). Without it anyone who can reach the query port could read every ' +
        'store. For local development only, security.insecure: true starts without one.',
    );
  }
  const replayWindowMs = security.replayWindowMs ?? 30_000;
  if (!Number.isFinite(replayWindowMs) || replayWindowMs < 1000 || replayWindowMs > 600_000) {
    throw new StreamsModuleConfigError(
      `security.replayWindowMs must be a number of ms from 1000 to 600000, got ${String(security.replayWindowMs)}`,
    );
  }
  const secretDigests = secrets.map((secret) => createHash('sha256').update(secret).digest());
  const keyMaterial =
    secretDigests.length > 0
      ? secretDigests
      : [
          createHash('sha256')
            .update(`nest-streams hop key of application '${applicationId}'`)
            .digest(),
        ];
  return {
    messageKeys: keyMaterial.map((digest) =>
      createHmac('sha256', digest).update('nest-streams instance messages v1').digest(),
    ),
    secretDigests,
    replayWindowMs,
    derivedKey: secrets.length === 0,
    tls: security.tls === undefined ? undefined : tlsSettings(security.tls),
  };
}

/**
 * `security.clusterSecret` as a list (empty when unset): one secret, or several during a
 * rotation (the first signs, any verifies).
 *
 * @throws StreamsModuleConfigError naming the secret that is too short, or an empty list.
 */
function clusterSecrets(option: string | readonly string[] | undefined): readonly string[] {
  if (option === undefined) return [];
  const list = Array.isArray(option) ? (option as readonly unknown[]) : [option as unknown];
  if (list.length === 0) {
    throw new StreamsModuleConfigError(
      'security.clusterSecret must be a secret or a non-empty list of secrets (the first signs, any verifies)',
    );
  }
  list.forEach((secret, i) => {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) {
      const name = Array.isArray(option)
        ? `security.clusterSecret[${i}]`
        : 'security.clusterSecret';
      throw new StreamsModuleConfigError(
        `${name} must be a string of ${MIN_SECRET_LENGTH} characters or more`,
      );
    }
  });
  return list as readonly string[];
}

function tlsSettings(tls: StreamsTlsOptions): InstanceTlsSettings {
  const pem = (value: unknown): value is string | Buffer =>
    (typeof value === 'string' && value.trim() !== '') ||
    (Buffer.isBuffer(value) && value.length > 0);
  if (typeof tls !== 'object' || tls === null) {
    throw new StreamsModuleConfigError('security.tls must be { cert, key, ca }');
  }
  for (const name of ['cert', 'key'] as const) {
    if (!pem(tls[name])) {
      throw new StreamsModuleConfigError(
        `security.tls.${name} must be PEM text (a string or a Buffer): this instance's ${name === 'cert' ? 'certificate chain' : 'private key'}`,
      );
    }
  }
  const ca = (Array.isArray(tls.ca) ? [...(tls.ca as unknown[])] : [tls.ca]).filter(
    (c) => c !== undefined,
  );
  if (ca.length === 0 || !ca.every(pem)) {
    throw new StreamsModuleConfigError(
      'security.tls.ca must be the PEM certificate(s) of the CA that signed every instance certificate',
    );
  }
  const settings: InstanceTlsSettings = {
    cert: tls.cert,
    key: tls.key,
    passphrase: tls.passphrase,
    ca: ca as (string | Buffer)[],
  };
  try {
    createSecureContext(settings);
  } catch (error) {
    throw new StreamsModuleConfigError(
      `security.tls cannot be used: ${error instanceof Error ? error.message : String(error)} (check that cert, key and passphrase belong together and are PEM)`,
      { cause: error },
    );
  }
  return settings;
}
