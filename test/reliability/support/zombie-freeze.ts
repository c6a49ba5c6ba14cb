import { ownPartitions, seatView, seatWithMostTasks, tasksMovedFrom } from './cluster-tasks';
import type { TransactionStateProbe } from './transaction-state-probe';
import type { ClusterSeat, OrderStatsCluster } from './order-stats-cluster';

/**
 * When the freeze catches the instance, as its transaction coordinator sees it: between two
 * transactions (its processed records wait in its caches; its next commit begins a transaction
 * after SIGCONT, so only the group coordinator's generation check (KIP-447) or the next owner's
 * producer of the same transactional id can fence it), or inside one (`Ongoing`: the
 * coordinator also aborts it after the transaction timeout and bumps the producer's epoch).
 */
export type FreezeMoment = 'between-transactions' | 'inside-transaction';

/** How to freeze. */
export interface FreezeOptions {
  readonly moment: FreezeMoment;
  /** The application id (a part of every transactional id). */
  readonly applicationId: string;
  /** Input partitions of the whole cluster. */
  readonly partitions: number;
  /** Frozen at least this long (past the session timeout). */
  readonly minFrozenMs: number;
  /** Resumed after this long even if the others did not take its tasks over. */
  readonly maxFrozenMs: number;
  /** Seats frozen before: another one is chosen when one owns tasks. */
  readonly avoid: ReadonlySet<number>;
  /** Called just before SIGCONT. */
  readonly beforeResume?: () => void;
}

/** What happened to the frozen seat until SIGCONT. */
export interface FreezeOutcome {
  readonly seat: ClusterSeat;
  readonly moment: FreezeMoment;
  /** Freezes it took to catch the moment (the others lasted 0.3–1.5 s). */
  readonly attempts: number;
  /** Its transactions open at the freeze (`id: state`), as their coordinator said. */
  readonly openAtFreeze: readonly string[];
  readonly partitionsBefore: readonly number[];
  /** Its counters just before SIGSTOP (it had just processed records). */
  readonly processedAtFreeze: number;
  readonly commitsAtFreeze: number;
  /** From SIGSTOP until the others, RUNNING, owned every task between them; null: never. */
  readonly tasksMovedAfterMs: number | null;
  readonly frozenMs: number;
  readonly resumedAt: number;
  /** Length of its output at SIGCONT: what follows is the zombie's. */
  readonly outputMark: number;
}

/**
 * When the coordinator is asked, after SIGSTOP: the frozen member's requests in flight land
 * first (a loaded broker may take a while); between two transactions must hold at both.
 */
const PROBE_AFTER_MS = [300, 1_500];

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/**
 * Freezes (SIGSTOP) the live seat owning the most tasks right after it was seen processing, at
 * the wanted moment (a freeze that caught the other moment is undone within 1.5 s, SIGCONT,
 * and tried again), keeps it frozen until the others took its tasks over and at least
 * `minFrozenMs`, then lets it run on (SIGCONT): a zombie.
 */
export async function freezeZombie(
  cluster: OrderStatsCluster,
  probe: TransactionStateProbe,
  options: FreezeOptions,
): Promise<FreezeOutcome> {
  const seat = await seatWithMostTasks(cluster, options.avoid);
  const partitionsBefore = await ownPartitions(cluster, seat);
  const deadline = Date.now() + 60_000;
  for (let attempts = 1; ; attempts++) {
    const seen = await seenProcessing(cluster, seat, deadline);
    cluster.pause(seat.index);
    const frozenAt = Date.now();
    const ids = transactionalIds(seat, options.applicationId, partitionsBefore);
    let open: string[] = [];
    for (const afterMs of PROBE_AFTER_MS) {
      await sleep(frozenAt + afterMs - Date.now());
      open = await probe.open(ids);
      if (open.length > 0) break;
    }
    if (open.length > 0 === (options.moment === 'inside-transaction')) {
      const tasksMovedAfterMs = await waitTasksMoved(cluster, seat, frozenAt, options);
      // Timers run on a monotonic clock and may end a millisecond before Date.now() says so.
      while (Date.now() < frozenAt + options.minFrozenMs) {
        await sleep(frozenAt + options.minFrozenMs - Date.now() + 1);
      }
      const outputMark = seat.instance.output.length;
      options.beforeResume?.();
      cluster.resume(seat.index);
      const resumedAt = Date.now();
      return {
        seat,
        moment: options.moment,
        attempts,
        openAtFreeze: open,
        partitionsBefore,
        processedAtFreeze: seen.processed,
        commitsAtFreeze: seen.commits,
        tasksMovedAfterMs,
        frozenMs: resumedAt - frozenAt,
        resumedAt,
        outputMark,
      };
    }
    cluster.resume(seat.index);
    if (Date.now() > deadline) {
      throw new Error(`seat ${seat.index}: no freeze ${options.moment} in ${attempts} attempts`);
    }
    await sleep(20 + ((attempts * 37) % 100));
  }
}

/** The line the engine logs with the thread's transactional id (KIP-447: one per thread). */
const THREAD_PRODUCER = /one transactional producer for the thread's tasks \(KIP-447\), (\S+)/g;

/**
 * The transactional ids the seat may use: its thread's (as it logged it) under KIP-447, else
 * one per task (`<applicationId>-<taskId>`, tasks `0_<partition>` in order-stats). Ids the
 * coordinators do not know are ignored by the probe.
 */
function transactionalIds(
  seat: ClusterSeat,
  applicationId: string,
  partitions: readonly number[],
): string[] {
  const thread = [...seat.instance.output.matchAll(THREAD_PRODUCER)].map((m) => m[1]);
  return [...new Set(thread), ...partitions.map((p) => `${applicationId}-0_${p}`)];
}

/** The seat's counters once its `processed` counter moved between two reads 50 ms apart. */
async function seenProcessing(
  cluster: OrderStatsCluster,
  seat: ClusterSeat,
  deadline: number,
): Promise<{ processed: number; commits: number }> {
  let last = await seatView(cluster, seat);
  for (;;) {
    await sleep(50);
    const view = await seatView(cluster, seat);
    if (view.processed > last.processed) return view;
    if (Date.now() > deadline) throw new Error(`seat ${seat.index} processes nothing`);
    last = view;
  }
}

/** Ms from the freeze until the others owned every task; null if not by `maxFrozenMs`. */
async function waitTasksMoved(
  cluster: OrderStatsCluster,
  seat: ClusterSeat,
  frozenAt: number,
  options: FreezeOptions,
): Promise<number | null> {
  while (Date.now() < frozenAt + options.maxFrozenMs) {
    cluster.assertHealthy();
    const moved = await tasksMovedFrom(cluster, seat, options.partitions).catch(() => false);
    if (moved) return Date.now() - frozenAt;
    await sleep(250);
  }
  return null;
}
