// kafkajs with the engine's fixes (no TimeoutNegativeWarning on Node 24): importing
// @nest-streams/streams installs them, before anything loads kafkajs.
import '@nest-streams/streams';
import { Kafka, logLevel } from 'kafkajs';

/** What one broker said of the cluster. */
export interface ClusterView {
  /** Ids of the brokers the cluster metadata lists (registered and not fenced). */
  brokerIds: number[];
  /** The controller id the broker named (under KRaft: any live broker), or null. */
  controller: number | null;
}

/**
 * Asks the broker at `address` (`host:port`) alone to describe the cluster, within about 3 s;
 * undefined when it does not answer (down, frozen, not started yet).
 */
export async function describeClusterAt(address: string): Promise<ClusterView | undefined> {
  const admin = new Kafka({
    clientId: 'nest-streams-broker-probe',
    brokers: [address],
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1000,
    requestTimeout: 2000,
    retry: { retries: 0 },
  }).admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    return { brokerIds: cluster.brokers.map((b) => b.nodeId), controller: cluster.controller };
  } catch {
    return undefined;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** Whether the broker at `address` answers a metadata request naming brokers and a controller. */
export async function answersMetadata(address: string): Promise<boolean> {
  const view = await describeClusterAt(address);
  return view !== undefined && view.brokerIds.length > 0 && view.controller !== null;
}
