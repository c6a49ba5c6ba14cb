import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConsumedRecord } from '../src/client/consumed-record';
import type { GroupFetchedBatch } from '../src/client/group-consumer';
import { Consumed } from '../src/kstream/consumed';
import { StreamsBuilder } from '../src/kstream/streams-builder';
import { InMemoryRecordCollector } from '../src/processor/internals/in-memory-record-collector';
import { TaskId } from '../src/processor/task-id';
import { resolveStreamsConfig } from '../src/runtime/streams-config';
import { StreamTask } from '../src/runtime/internals/task/stream-task';
import { Serdes } from '../src/serde/serdes';

/** The input partitions of {@link twoInputTask}'s task: partition 0 of `left` and `right`. */
export const TWO_INPUTS = [
  { topic: 'left', partition: 0 },
  { topic: 'right', partition: 0 },
] as const;

/**
 * A running task of one sub-topology reading `left` and `right` (merged, then a `foreach`),
 * with `max.task.idle.ms` as given; `seen` lists the values it processed, in order. `close`
 * closes it and removes its state directory.
 */
export async function twoInputTask(
  maxTaskIdleMs: number,
): Promise<{ task: StreamTask; seen: string[]; close: () => Promise<void> }> {
  const seen: string[] = [];
  const builder = new StreamsBuilder();
  const consumed = Consumed.with(Serdes.String(), Serdes.String());
  builder
    .stream('left', consumed)
    .merge(builder.stream('right', consumed))
    .foreach((_, value) => void seen.push(value));
  const topology = builder.build();
  const stateDir = mkdtempSync(join(tmpdir(), 'two-inputs-'));
  const config = resolveStreamsConfig({
    applicationId: 'two-inputs',
    bootstrapServers: ['dummy:1234'],
    stateDir,
    maxTaskIdleMs,
  });
  const [subtopology] = topology.subtopologies();
  const id = new TaskId(subtopology.id, 0);
  const task = new StreamTask({
    id,
    topology,
    subtopology,
    config,
    taskDir: join(stateDir, 'two-inputs', id.toString()),
    recordCollector: new InMemoryRecordCollector(),
    resolveTopic: (t) => t,
    partitionsFor: () => 1,
  });
  await task.initializeStores();
  task.initializeTopology();
  const close = async () => {
    await task.close(true);
    rmSync(stateDir, { recursive: true, force: true });
  };
  return { task, seen, close };
}

/** Records of `topic`'s partition 0 from offset `from`, one per timestamp, valued `topic@offset`. */
export function inputRecords(topic: string, from: number, timestamps: number[]): ConsumedRecord[] {
  return timestamps.map((timestamp, i) => ({
    topic,
    partition: 0,
    offset: from + i,
    timestamp,
    key: Buffer.from('k'),
    value: Buffer.from(`${topic}@${from + i}`),
    headers: {},
  }));
}

/** A current fetched batch of `records` (one partition 0), ending past its last record. */
export function fetchedBatch(records: ConsumedRecord[]): GroupFetchedBatch {
  return {
    topic: records[0].topic,
    partition: 0,
    records,
    nextOffset: records[records.length - 1].offset + 1,
    isCurrent: () => true,
    heartbeat: async () => undefined,
  };
}
