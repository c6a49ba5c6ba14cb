import type { Topology } from '../../../processor/topology';
import { changelogTopicName } from '../../../state/internals/changelog-topic-name';
import { OffsetCheckpoint } from '../../../state/internals/offset-checkpoint';
import type { StateDirectory } from '../task-state/state-directory';
import type { ClusterAdmin } from '../../../client/cluster-admin';
import { fetchTopicOffsetsSettled } from '../../../client/topic-admin';

/**
 * Offset sums of task state left on disk (the checkpoints of task directories), which a client
 * reports in its subscription so the assignor can place tasks where their state is.
 *
 * @throws the file system's errors (an unreadable state directory); a corrupt checkpoint
 *   throws CorruptCheckpointError: report no state (the caller logs and goes on).
 */
export async function localTaskOffsetSums(
  stateDirectory: StateDirectory,
): Promise<Record<string, number>> {
  const sums: Record<string, number> = {};
  for (const dir of await stateDirectory.listTaskDirs()) {
    const checkpoint = await new OffsetCheckpoint(
      stateDirectory.checkpointFilePath(dir.taskId),
    ).read();
    if (checkpoint.size === 0) continue;
    sums[dir.taskId.toString()] = [...checkpoint.values()].reduce((n, e) => n + e.offset + 1, 0);
  }
  return sums;
}

/**
 * The leader's view of how much state each stateful task has: the sum of its changelogs' end
 * offsets, to compare with each client's offset sums (lag-aware assignment).
 *
 * @throws the admin client's errors; the assignor then places tasks without lag.
 */
export async function changelogEndOffsetSums(
  admin: ClusterAdmin,
  topology: Topology,
  applicationId: string,
): Promise<Record<string, number>> {
  const sums: Record<string, number> = {};
  for (const sub of topology.subtopologies()) {
    for (const storeName of sub.stores) {
      if (!topology.stores().get(storeName)!.loggingEnabled) continue;
      const offsets = await fetchTopicOffsetsSettled(
        admin,
        changelogTopicName(applicationId, storeName),
      );
      for (const o of offsets) {
        const task = `${sub.id}_${o.partition}`;
        sums[task] = (sums[task] ?? 0) + o.high;
      }
    }
  }
  return sums;
}
