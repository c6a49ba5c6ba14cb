import type {
  AssignedPartitionReader,
  FetchedPartition,
} from '../../../client/assigned-partition-reader';
import type { PartitionRestore, RestoreProgress } from './restore-progress';

/**
 * One restore pass reading by assignment (no consumer group), one fetch ahead: as soon as a
 * fetch returns, the next one is sent from the positions it reached, and the stores write the
 * returned records while the broker answers it. Positions for the next fetch come from what
 * the reader returned (`nextOffset`), never from what was written, so reading ahead skips and
 * repeats nothing; at most two fetch responses are held at once.
 *
 * @throws what {@link RestoreProgress} fails with (a store write, the listener, a stall, an
 *   abort), or the reader's error (the cluster unreachable, a position outside the log): the
 *   positions reached so far are kept in the partitions, so a new pass resumes from them.
 */
export async function restoreByAssignment(
  reader: AssignedPartitionReader,
  progress: RestoreProgress,
): Promise<void> {
  const live = progress.pending.filter((r) => !r.done);
  const byKey = new Map(live.map((r) => [`${r.target.topic}:${r.target.partition}`, r]));
  /** Where each partition's next fetch starts (ahead of `position` while a write runs). */
  const fetchAt = new Map(live.map((r) => [r, r.position]));
  const fetchNext = (): Promise<FetchedPartition[]> | undefined => {
    const positions = live
      .filter((r) => !r.done && fetchAt.get(r)! < r.end)
      .map((r) => ({
        topic: r.target.topic,
        partition: r.target.partition,
        offset: fetchAt.get(r)!,
      }));
    if (positions.length === 0) return undefined;
    const fetch = reader.fetch(positions);
    fetch.catch(() => undefined); // awaited later: its failure must not count as unhandled
    return fetch;
  };
  // Settles the wait for a fetch when the pass fails (or, once every partition is done).
  const settled = progress.finished.then(() => [] as FetchedPartition[]);
  settled.catch(() => undefined);

  progress.touch();
  // A fetch still in flight when the pass ends is dropped; the caller closes the reader.
  let inFlight = fetchNext();
  while (inFlight !== undefined) {
    const fetched = await Promise.race([inFlight, settled]);
    if (progress.failure) throw progress.failure;
    const applies: { r: PartitionRestore; f: FetchedPartition }[] = [];
    for (const f of fetched) {
      const r = byKey.get(`${f.topic}:${f.partition}`);
      if (r === undefined || f.nextOffset <= fetchAt.get(r)!) continue;
      fetchAt.set(r, f.nextOffset);
      applies.push({ r, f });
    }
    inFlight = fetchNext();
    // Each partition has its own store: their writes run side by side.
    await Promise.all(applies.map(({ r, f }) => progress.apply(r, f.records, f.nextOffset - 1)));
    if (progress.failure) throw progress.failure;
    if (live.every((r) => r.done)) break;
    if (inFlight === undefined) inFlight = fetchNext();
  }
  await progress.finished;
}
