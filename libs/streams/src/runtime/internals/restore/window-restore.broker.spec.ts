import { promises as fs } from 'node:fs';
import type { RecordProducer } from '../../../client/record-producer';
import { KafkaRecordCollector } from '../../../processor/internals/kafka-record-collector';
import { Serdes } from '../../../serde/serdes';
import { changelogTopicName } from '../../../state/internals/changelog-topic-name';
import type { StoreRegistration } from '../../../processor/state-store-context';
import { Stores } from '../../../state/stores';
import { ChangelogTopics } from '../topics/changelog-topics';
import { KafkajsClusterAdmin } from '../../../client/kafkajs/kafkajs-cluster-admin';
import { StateDirectory } from '../task-state/state-directory';
import { StateRestorer } from './state-restorer';
import { TaskStateManager } from '../task-state/task-state-manager';
import { KafkaTestContext } from '../../../../../../test/support/kafka-test-context';
import {
  PARTITIONS,
  RecordingLogger,
  RecordingRestoreListener,
  TASK,
  connectedProducer,
  tempStateDir,
} from '../../../../test-support/state-restore.broker-test-support';

const STORE = 'windowed-count-store';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('window store restore (real broker)', () => {
  let ctx: KafkaTestContext;
  let producer: RecordProducer;
  const dirs: string[] = [];

  beforeEach(async () => {
    ctx = new KafkaTestContext();
    producer = await connectedProducer(ctx);
    await new ChangelogTopics(new KafkajsClusterAdmin(await ctx.admin())).ensure([
      {
        topic: changelogTopicName(ctx.applicationId, STORE),
        kind: 'window',
        partitions: PARTITIONS,
        retentionMs: HOUR,
      },
    ]);
  });
  afterEach(async () => {
    await producer.disconnect();
    await ctx.cleanup();
    for (const dir of dirs.splice(0)) await fs.rm(dir, { recursive: true, force: true });
  });

  async function openWindowTask() {
    const dir = await tempStateDir();
    dirs.push(dir);
    const stateDirectory = new StateDirectory({ stateDir: dir, applicationId: ctx.applicationId });
    await stateDirectory.lock();
    const collector = new KafkaRecordCollector({ sender: producer, lingerMs: 5 });
    const registrations: StoreRegistration[] = [];
    const store = Stores.windowStoreBuilder(
      Stores.persistentWindowStore(STORE, HOUR, 5 * MINUTE),
      Serdes.String(),
      Serdes.Long(),
    ).build();
    await store.init({
      applicationId: ctx.applicationId,
      taskId: TASK,
      taskDir: await stateDirectory.taskDir(TASK),
      recordCollector: collector,
      currentTimestamp: () => 0,
      register: (r) => registrations.push(r),
    });
    const manager = new TaskStateManager({
      taskId: TASK,
      stateDirectory,
      registrations,
      recordCollector: collector,
      exactlyOnce: false,
      logger: new RecordingLogger(),
    });
    await manager.initialize();
    return { store, collector, manager, stateDirectory };
  }

  it('rebuilds windows in a fresh state dir from the changelog', async () => {
    const first = await openWindowTask();
    const restorer = new StateRestorer({
      kafka: ctx.kafka,
      admin: new KafkajsClusterAdmin(await ctx.admin()),
      groupIdPrefix: ctx.applicationId,
    });
    await first.manager.restore(restorer);
    // Windows of the last half hour: records older than the changelog's retention (the store's
    // hour and a day) would be deleted by the broker's next retention pass.
    const now = Date.now() - 30 * MINUTE;
    const base = now - (now % (5 * MINUTE));
    for (let w = 0; w < 3; w++) {
      for (let u = 0; u < 20; u++) first.store.put(`user-${u}`, w * 100 + u, base + w * 5 * MINUTE);
    }
    await first.store.flush();
    await first.collector.flush();
    const written = (
      await first.store.fetchRangeAsync(undefined, undefined, 0, Number.MAX_SAFE_INTEGER)
    ).map((e) => `${e.key.key}@${e.key.window.start}=${e.value}`);
    expect(written).toHaveLength(60);
    await first.store.close();
    await first.stateDirectory.unlock();

    const fresh = await openWindowTask();
    const listener = new RecordingRestoreListener();
    await fresh.manager.restore(restorer, { listener });
    expect(listener.totalRestored).toBe(60);
    const restored = (
      await fresh.store.fetchRangeAsync(undefined, undefined, 0, Number.MAX_SAFE_INTEGER)
    ).map((e) => `${e.key.key}@${e.key.window.start}=${e.value}`);
    expect(restored).toEqual(written);
    expect(fresh.store.fetch('user-3', base + 5 * MINUTE)).toBe(103);
    await fresh.store.close();
    await fresh.manager.close(true);
    await fresh.stateDirectory.unlock();
  });
});
