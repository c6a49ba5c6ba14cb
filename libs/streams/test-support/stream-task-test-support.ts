import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryRecordCollector } from '../src/processor/internals/in-memory-record-collector';
import { TaskId } from '../src/processor/task-id';
import type { Topology } from '../src/processor/topology';
import {
  resolveStreamsConfig,
  type ResolvedStreamsConfig,
  type StreamsConfig,
} from '../src/runtime/streams-config';
import { StreamTask, type StreamTaskOptions } from '../src/runtime/internals/task/stream-task';

/** What a {@link TestTasks} task runs with besides its topology. */
export interface TestTaskOptions {
  /** Settings over the defaults (application `test-app`, a fresh state directory). */
  readonly config?: Partial<StreamsConfig>;
  /** Task options over the defaults (an in-memory collector, every topic one partition). */
  readonly task?: (config: ResolvedStreamsConfig) => Partial<StreamTaskOptions>;
}

/**
 * Stream tasks for specs, without a broker: task `<sub-topology>_0` of a topology's first
 * sub-topology, its stores opened in a fresh state directory and its processors initialized.
 * Call {@link removeDirectories} once done (`afterAll`).
 */
export class TestTasks {
  private readonly dirs: string[] = [];

  async create(
    topology: Topology,
    options: TestTaskOptions = {},
  ): Promise<{
    task: StreamTask;
    collector: InMemoryRecordCollector;
    config: ResolvedStreamsConfig;
  }> {
    const stateDir = mkdtempSync(join(tmpdir(), 'stream-task-'));
    this.dirs.push(stateDir);
    const config = resolveStreamsConfig({
      applicationId: 'test-app',
      bootstrapServers: ['dummy:1234'],
      stateDir,
      ...options.config,
    });
    const [sub] = topology.subtopologies();
    const id = new TaskId(sub.id, 0);
    const collector = new InMemoryRecordCollector();
    const task = new StreamTask({
      id,
      topology,
      subtopology: sub,
      config,
      taskDir: join(stateDir, id.toString()),
      recordCollector: collector,
      resolveTopic: (topic) => topic,
      partitionsFor: () => 1,
      ...options.task?.(config),
    });
    await task.initializeStores();
    task.initializeTopology();
    return { task, collector, config };
  }

  removeDirectories(): void {
    for (const dir of this.dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
}
