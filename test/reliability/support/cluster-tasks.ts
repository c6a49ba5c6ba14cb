import type { ClusterSeat, OrderStatsCluster } from './order-stats-cluster';

/** The store whose active partitions say which instance owns which task. */
const STORE = 'stats-store';

/** What one instance's `GET /streams/metadata` says. */
export interface SeatView {
  /** The instance's KafkaStreams state (RUNNING, REBALANCING...). */
  readonly state: string;
  /** Active partitions of `stats-store` per instance (`host:port`), as this instance sees them. */
  readonly active: ReadonlyMap<string, readonly number[]>;
  /** Its standby partitions per instance (warm-up replicas included). */
  readonly standby: ReadonlyMap<string, readonly number[]>;
  /** This instance's processing counters. */
  readonly processed: number;
  readonly commits: number;
}

interface MetadataBody {
  state: string;
  instances: {
    host: string;
    stores: Record<string, { active: number[]; standby: number[] } | undefined>;
  }[];
  metrics: { processed: number; commits: number };
}

/** The seat's `host:port` as the cluster metadata names it (its APPLICATION_SERVER). */
export function endpointOf(seat: ClusterSeat): string {
  return `127.0.0.1:${seat.port}`;
}

/** Reads a seat's `GET /streams/metadata`. */
export async function seatView(cluster: OrderStatsCluster, seat: ClusterSeat): Promise<SeatView> {
  const answer = await cluster.get(seat, '/streams/metadata', 10_000);
  if (answer.status !== 200) {
    throw new Error(`seat ${seat.index}: /streams/metadata ${answer.status} ${answer.body}`);
  }
  const body = JSON.parse(answer.body) as MetadataBody;
  return {
    state: body.state,
    active: new Map(body.instances.map((i) => [i.host, i.stores[STORE]?.active ?? []])),
    standby: new Map(body.instances.map((i) => [i.host, i.stores[STORE]?.standby ?? []])),
    processed: body.metrics.processed,
    commits: body.metrics.commits,
  };
}

/** The seat's state and its active and standby (or warm-up) partitions, as it sees them. */
export async function ownTasks(
  cluster: OrderStatsCluster,
  seat: ClusterSeat,
): Promise<{ state: string; active: readonly number[]; standby: readonly number[] }> {
  const view = await seatView(cluster, seat);
  const me = endpointOf(seat);
  return {
    state: view.state,
    active: view.active.get(me) ?? [],
    standby: view.standby.get(me) ?? [],
  };
}

/** The active partitions the seat owns, as it sees it itself. */
export async function ownPartitions(
  cluster: OrderStatsCluster,
  seat: ClusterSeat,
): Promise<readonly number[]> {
  return (await ownTasks(cluster, seat)).active;
}

/**
 * The seat to freeze: the one owning the most active tasks as the first live seat sees the
 * cluster (RUNNING), seats not in `avoid` first (ties: the lowest index).
 */
export async function seatWithMostTasks(
  cluster: OrderStatsCluster,
  avoid: ReadonlySet<number>,
): Promise<ClusterSeat> {
  const [observer] = cluster.aliveSeats();
  const view = await seatView(cluster, observer);
  if (view.state !== 'RUNNING') throw new Error(`seat ${observer.index} is ${view.state}`);
  const owned = (s: ClusterSeat): number => view.active.get(endpointOf(s))?.length ?? 0;
  const ranked = [...cluster.seats]
    .filter((s) => s.alive && owned(s) > 0)
    .sort((a, b) => Number(avoid.has(a.index)) - Number(avoid.has(b.index)) || owned(b) - owned(a));
  if (ranked.length === 0) throw new Error('no live seat owns a task');
  return ranked[0];
}

/**
 * True once every live seat is RUNNING and agrees that `gone` owns no task and that the live
 * seats own all `partitions` between them: the group moved on without it.
 */
export async function tasksMovedFrom(
  cluster: OrderStatsCluster,
  gone: ClusterSeat,
  partitions: number,
): Promise<boolean> {
  const live = cluster.aliveSeats();
  const views = await Promise.all(live.map((s) => seatView(cluster, s)));
  return views.every((view) => {
    if (view.state !== 'RUNNING' || (view.active.get(endpointOf(gone)) ?? []).length > 0) {
      return false;
    }
    const covered = new Set(live.flatMap((s) => view.active.get(endpointOf(s)) ?? []));
    return covered.size === partitions;
  });
}

/**
 * True once every seat is alive and RUNNING and all of them see the same active and standby
 * owners, the active ones owning all `partitions` once: one generation, which every member
 * joined. A member that missed a rebalance still sees its old one.
 */
export async function assignmentAgreed(
  cluster: OrderStatsCluster,
  partitions: number,
): Promise<boolean> {
  if (cluster.seats.some((s) => !s.alive)) return false;
  const views = await Promise.all(cluster.seats.map((s) => seatView(cluster, s)));
  const owners = views.map((view) =>
    JSON.stringify(
      [...view.active, ...[...view.standby].map(([h, p]) => [`standby ${h}`, p] as const)].sort(
        ([a], [b]) => a.localeCompare(b),
      ),
    ),
  );
  const owned = [...views[0].active.values()].flat();
  return (
    views.every((view) => view.state === 'RUNNING') &&
    owners.every((o) => o === owners[0]) &&
    owned.length === partitions &&
    new Set(owned).size === partitions
  );
}

/**
 * The active owner (`host:port`) of each partition, as the first live seat sees it. Call once
 * {@link assignmentAgreed} holds, so that every member sees the same.
 */
export async function activeOwners(cluster: OrderStatsCluster): Promise<Map<number, string>> {
  const [observer] = cluster.aliveSeats();
  const view = await seatView(cluster, observer);
  const owners = new Map<number, string>();
  for (const [host, partitions] of view.active) {
    for (const p of partitions) owners.set(p, host);
  }
  return owners;
}
