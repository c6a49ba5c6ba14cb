import {
  type HostInfo,
  StateStoreNotAvailableError,
  type StreamsMetadata,
} from '@nest-streams/streams';
import type { ReadTarget } from '../../ownership/internals/owner-then-standby';
import type { QueryFailure } from './interactive-query.protocol';

/** One instance's (or partition's) failure in a scatter-gather query. */
export interface InstanceQueryFailure extends QueryFailure {
  /** The instance (`application.server`) that failed, or `none` when no instance runs it. */
  readonly instance: string;
  /** The partitions whose entries are missing because of it. */
  readonly partitions: readonly number[];
}

/** One instance a scatter-gather query asks, for its active partitions (all, when alone). */
export interface ScatterAsk {
  readonly target: ReadTarget;
  readonly instance: string;
  readonly partitions?: number[];
}

/**
 * Whom a scatter-gather query of `store` asks: every instance running partitions of the
 * store's sub-topology actively, each for those partitions; partitions no instance runs
 * actively are reported as failures up front: every partition below `partitionCount` (the
 * store's, from the engine) that no instance's active tasks name, so a host map missing a task
 * makes the answer incomplete rather than silently short. Without the count (not known yet),
 * the partitions the metadata names at all. Without an `application.server` (a single
 * instance) this instance answers for all.
 *
 * @throws StateStoreNotAvailableError (retriable) when no instance runs the store at all.
 */
export function planScatter(
  store: string,
  sub: { readonly id: number },
  self: HostInfo | undefined,
  servedBy: string,
  instances: readonly StreamsMetadata[],
  partitionCount: number | undefined,
): { asks: ScatterAsk[]; failures: InstanceQueryFailure[] } {
  if (self === undefined) {
    return {
      asks: [{ target: { local: true, standby: false }, instance: servedBy }],
      failures: [],
    };
  }
  const prefix = `${sub.id}_`;
  const partitionsOf = (tasks: readonly string[]) =>
    tasks.filter((t) => t.startsWith(prefix)).map((t) => Number(t.slice(prefix.length)));
  const asks: ScatterAsk[] = [];
  const known = new Set<number>(Array.from({ length: partitionCount ?? 0 }, (_, p) => p));
  const covered = new Set<number>();
  for (const instance of instances) {
    for (const p of partitionsOf(instance.standbyTasks)) known.add(p);
    const partitions = partitionsOf(instance.activeTasks);
    if (partitions.length === 0) continue;
    for (const p of partitions) {
      known.add(p);
      covered.add(p);
    }
    const here = instance.hostInfo.equals(self);
    asks.push({
      target: here
        ? { local: true, standby: false }
        : { local: false, host: instance.hostInfo, standby: false },
      instance: instance.hostInfo.toString(),
      partitions,
    });
  }
  if (asks.length === 0) {
    throw new StateStoreNotAvailableError(
      `no instance runs store '${store}' right now (rebalancing): retry shortly`,
    );
  }
  const failures: InstanceQueryFailure[] = [];
  const orphans = [...known].filter((p) => !covered.has(p)).sort((a, b) => a - b);
  if (orphans.length > 0) {
    failures.push({
      instance: 'none',
      partitions: orphans,
      code: 'STORE_NOT_AVAILABLE',
      retriable: true,
      message: `no instance runs partitions ${orphans.join(', ')} of '${store}' actively (rebalancing)`,
    });
  }
  return { asks, failures };
}
