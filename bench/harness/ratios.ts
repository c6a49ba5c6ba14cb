import type { SystemRow } from './system-row';

/**
 * How a row compares with the Java peer's row of the same comparison key (the at-least-once
 * Java row for rows with no Java counterpart, such as the ceilings): events/s over events/s,
 * or, for rows without a rate (a restart that restored nothing), Java's seconds over the
 * row's. Above 1 means faster than Java.
 */
export function ratioToJava(row: SystemRow, rows: readonly SystemRow[]): number | undefined {
  const java = rows.filter((r) => r.role === 'java' && r.result);
  const peer =
    java.find((r) => r.compareKey === row.compareKey) ??
    java.find((r) => r.compareKey === 'at_least_once') ??
    java[0];
  return peer ? ratio(row, peer) : undefined;
}

/**
 * events/s of the row over the consume-only ceiling of its own client (`row.client`; kafkajs
 * for rows without a Node client, as before there were two), when both were measured.
 */
export function shareOfConsumeCeiling(
  row: SystemRow,
  rows: readonly SystemRow[],
): number | undefined {
  const client = row.client ?? 'kafkajs';
  const ceiling = rows.find(
    (r) =>
      r.role === 'consume-ceiling' && (r.client ?? 'kafkajs') === client && r.result?.eventsPerSec,
  );
  const rate = row.result?.eventsPerSec;
  if (!ceiling || rate === undefined || row === ceiling) return undefined;
  return rate / ceiling.result!.eventsPerSec!;
}

function ratio(row: SystemRow, peer: SystemRow): number | undefined {
  const a = row.result;
  const b = peer.result;
  if (!a || !b) return undefined;
  if (a.eventsPerSec !== undefined && b.eventsPerSec !== undefined && b.eventsPerSec > 0) {
    return a.eventsPerSec / b.eventsPerSec;
  }
  if (a.seconds !== undefined && b.seconds !== undefined && a.seconds > 0) {
    return b.seconds / a.seconds;
  }
  return undefined;
}
