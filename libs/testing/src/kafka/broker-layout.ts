import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isPort } from './free-port';
import { readLayoutFile, writeLayoutFile } from './layout-file';
import type { BrokerLayout } from './server-properties';

/** The file in a broker home recording the ports and storage of its last formatted start. */
export const LAYOUT_FILE_NAME = 'layout.json';

/** What a start left for a later restart on the same ports with the same data. */
export interface SavedBrokerLayout extends BrokerLayout {
  /** The KRaft cluster id the storage was formatted with. */
  clusterId: string;
}

/**
 * A new KRaft cluster id: 16 random bytes in base64url, as `kafka-storage random-uuid` prints.
 * Like Kafka's own `Uuid.randomUuid()`, it never starts with `-`: the storage tool's argument
 * parser would read such an id as an option (`--cluster-id: expected one argument`), which
 * failed one broker start in 64.
 */
export function newClusterId(random: (size: number) => Buffer = randomBytes): string {
  for (;;) {
    const id = random(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

/** Writes `<home>/layout.json` after the storage was formatted. */
export function writeBrokerLayout(home: string, layout: SavedBrokerLayout): void {
  writeLayoutFile(join(home, LAYOUT_FILE_NAME), layout);
}

/**
 * The layout of the previous start in `home`, when the file is readable and its storage is
 * still formatted (`meta.properties` in the log dir); `undefined` otherwise, so that the
 * caller starts afresh.
 */
export function reusableBrokerLayout(home: string): SavedBrokerLayout | undefined {
  const parsed = readLayoutFile<SavedBrokerLayout>(join(home, LAYOUT_FILE_NAME));
  if (!parsed) return undefined;
  const { brokerPort, controllerPort, logDir, clusterId, saslSsl } = parsed;
  if (
    !isPort(brokerPort) ||
    !isPort(controllerPort) ||
    brokerPort === controllerPort ||
    typeof logDir !== 'string' ||
    typeof clusterId !== 'string' ||
    clusterId.length === 0
  ) {
    return undefined;
  }
  if (!existsSync(join(logDir, 'meta.properties'))) return undefined;
  if (saslSsl !== undefined && (!isPort(saslSsl.port) || !existsSync(saslSsl.listener.keystore))) {
    return undefined;
  }
  return { brokerPort, controllerPort, logDir, clusterId, ...(saslSsl ? { saslSsl } : {}) };
}
