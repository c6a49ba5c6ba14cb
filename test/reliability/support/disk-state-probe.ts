import type { Admin } from 'kafkajs';
import type { OrderStatsInstance } from '../../../tools/instances/order-stats-instance';

/** The order-stats stores that have changelogs. */
export const ORDER_STATS_STORES = ['stats-store', 'windowed-count-store'] as const;

/**
 * Records restored from changelogs since the instance started, per store, from its Prometheus
 * scrape (`kafka_streams_restored_records{store="..."}`); a store without a line counts 0.
 */
export async function restoredRecords(instance: OrderStatsInstance): Promise<Map<string, number>> {
  const scrape = await instance.request('/metrics');
  if (scrape.status !== 200) throw new Error(`/metrics answered ${scrape.status}`);
  const result = new Map<string, number>(ORDER_STATS_STORES.map((s) => [s, 0]));
  for (const line of String(scrape.body).split('\n')) {
    const match = /^kafka_streams_restored_records\{store="([^"]+)"\} (\d+)$/.exec(line);
    if (match) result.set(match[1], Number(match[2]));
  }
  return result;
}

/**
 * Records in a store's changelog (`<applicationId>-<store>-changelog`), per partition: high
 * watermark minus low watermark, i.e. what a restore from the beginning reads when the topic
 * holds no transaction markers (at-least-once) and was not compacted.
 */
export async function changelogRecords(
  admin: Admin,
  applicationId: string,
  store: string,
): Promise<Map<number, number>> {
  const offsets = await admin.fetchTopicOffsets(`${applicationId}-${store}-changelog`);
  return new Map(offsets.map((o) => [o.partition, Number(o.high) - Number(o.low)]));
}

/** Sum of {@link changelogRecords} over `partitions` (every partition when omitted). */
export function total(perPartition: Map<number, number>, partitions?: number[]): number {
  let sum = 0;
  for (const [partition, n] of perPartition) {
    if (!partitions || partitions.includes(partition)) sum += n;
  }
  return sum;
}
