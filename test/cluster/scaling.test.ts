import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import type { OrderStats } from '../runtime/stats-topology';
import { ClusterInstance, waitFor } from './cluster-harness';
import { cooperativeRebalancing, streamsGroupProtocol } from '../support/streams-client';

interface Meta {
  activeHost: string;
  partition: number;
}

const USERS = 50;

/**
 * Scale out 2 -> 3 and in 3 -> 2 while events flow: every final value is exact, and whenever an
 * instance answers metadata it names a host that (once RUNNING) holds the partition, or says
 * NOT_AVAILABLE. Under exactly-once (100 ms commits) and under at-least-once with Kafka
 * Streams' default 30 s commit interval, where the members hold processed, uncommitted input
 * when the third one joins: each must commit before it rejoins (eager `onPartitionsRevoked`),
 * or the partitions' next owners process that input again and every count comes out too high.
 */
describe.each([
  { guarantee: 'exactly_once_v2', commitIntervalMs: 100, pauseMs: 100 },
  // Bursts 700 ms apart: never idle for the 1 s after which a thread commits early, so the
  // members always hold uncommitted input; between bursts the poll loop fetches nothing, and a
  // heartbeat there (not inside a batch) is where kafkajs learns of the rebalance and rejoins.
  { guarantee: 'at_least_once', commitIntervalMs: 30_000, pauseMs: 700 },
])('scaling while events flow ($guarantee, commits every $commitIntervalMs ms)', (mode) => {
  const ctx = new KafkaTestContext();
  const dirs: string[] = [];
  const instances: ClusterInstance[] = [];
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.kill('SIGKILL')));
    await ctx.cleanup();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const streamsProtocol = streamsGroupProtocol() === 'streams';

  it('keeps every value exact across scale-out and scale-in', async () => {
    const input = await ctx.createTopic(ctx.topicName('scale'), 6);
    const env = {
      APPLICATION_ID: ctx.applicationId,
      INPUT_TOPIC: input,
      KAFKA_BROKERS: brokers().join(','),
      PROCESSING_GUARANTEE: mode.guarantee,
      COMMIT_INTERVAL_MS: String(mode.commitIntervalMs),
    };
    const start = async (): Promise<ClusterInstance> => {
      const dir = mkdtempSync(join(tmpdir(), 'scale-'));
      dirs.push(dir);
      const instance = await ClusterInstance.start({ ...env, STATE_DIR: dir });
      instances.push(instance);
      return instance;
    };
    // `balanced`: also 6 / n tasks each. Under the streams protocol (KIP-1071) a member joining
    // is RUNNING with no task while the broker waits for the others to revoke what moves to it
    // (the tasks come with a later heartbeat): a balance is waited for, not assumed.
    const running = (list: ClusterInstance[], balanced = false) =>
      waitFor(
        async () => {
          const states = await Promise.all(list.map((i) => i.state()));
          return (
            states.every((s) => s.state === 'RUNNING') &&
            states.reduce((n, s) => n + s.active.length, 0) === 6 &&
            (!balanced || states.every((s) => s.active.length === 6 / list.length))
          );
        },
        90_000,
        `${list.length} instances RUNNING with all 6 tasks${balanced ? ', balanced' : ''}`,
      );

    const producer = ctx.kafka.producer();
    await producer.connect();
    const truth: Record<string, OrderStats> = {};
    let sent = 0;
    let producing = true;
    const flow = (async () => {
      while (producing) {
        const batch = Array.from({ length: 200 }, (_, i) => {
          const n = sent + i;
          return { userId: `user-${n % USERS}`, amount: (n % 5) + 1 };
        });
        await producer.send({
          topic: input,
          messages: batch.map((e) => ({ key: e.userId, value: JSON.stringify(e) })),
        });
        for (const e of batch) {
          const t = (truth[e.userId] ??= { count: 0, sum: 0 });
          t.count++;
          t.sum += e.amount;
        }
        sent += batch.length;
        await new Promise((r) => setTimeout(r, mode.pauseMs));
      }
    })();

    const metadataChecks: string[] = [];
    const checkMetadata = async (live: ClusterInstance[]): Promise<void> => {
      for (const asker of live) {
        const state = await asker.state().catch(() => undefined);
        if (state?.state !== 'RUNNING') continue;
        for (const user of ['user-1', 'user-7', 'user-13', 'user-22']) {
          const meta = (await asker.get<Meta>(`/meta/${user}`)).body;
          if (meta.partition < 0) continue;
          const owner = live.find((i) => i.endpoint === meta.activeHost);
          // A host that just left is named until the asker's next heartbeat sees the rebalance:
          // it is not RUNNING, so callers get "unreachable" (503 or a standby), never a wrong value.
          if (!owner) continue;
          // Cooperative (KIP-429): between the two rebalances of a move, the host map already
          // names the task's next owner, which holds it as a standby until its previous owner
          // gave it up (a query there answers stale from the standby, or 503).
          const holds = (s: { active: string[]; standby: string[] }) =>
            s.active.includes(`0_${meta.partition}`) ||
            (cooperativeRebalancing() && s.standby.includes(`0_${meta.partition}`));
          const ownerState = await owner.state();
          if (ownerState.state === 'RUNNING' && !holds(ownerState)) {
            // Re-ask once: a rebalance may have completed between the two calls.
            const again = (await asker.get<Meta>(`/meta/${user}`)).body;
            if (again.activeHost === meta.activeHost && again.partition === meta.partition) {
              const recheck = await owner.state();
              // Under the streams protocol (KIP-1071) the broker moves tasks while members keep
              // RUNNING, and a member's routing map follows one heartbeat later: the named host
              // may have just given the task up. It must then refuse the key (a typed, retriable
              // error), never answer it from a store it no longer owns.
              const refused = streamsProtocol && (await owner.get(`/get/${user}`)).status !== 200;
              if (recheck.state === 'RUNNING' && !holds(recheck) && !refused) {
                metadataChecks.push(
                  `${asker.endpoint} named ${meta.activeHost} for 0_${meta.partition}, which it does not hold`,
                );
              }
            }
          }
        }
      }
    };

    // Once every instance is RUNNING with all tasks, nothing is skipped: every instance names,
    // for every key, the live instance that holds the key's partition.
    const expectMetadataExact = async (live: ClusterInstance[]): Promise<void> => {
      // Under the streams protocol the routing maps converge within a heartbeat or two.
      if (streamsProtocol) await waitFor(() => metadataExact(live), 15_000, 'routing maps agree');
      const states = await Promise.all(live.map((i) => i.state()));
      const holderOf = (partition: number) =>
        live.filter((_, i) => states[i].active.includes(`0_${partition}`)).map((i) => i.endpoint);
      for (const asker of live) {
        for (const user of ['user-1', 'user-7', 'user-13', 'user-22']) {
          const meta = (await asker.get<Meta>(`/meta/${user}`)).body;
          expect({ asker: asker.endpoint, user, host: meta.activeHost }).toEqual({
            asker: asker.endpoint,
            user,
            host: holderOf(meta.partition)[0] ?? `no holder of partition ${meta.partition}`,
          });
        }
      }
    };

    const metadataExact = async (live: ClusterInstance[]): Promise<boolean> => {
      const states = await Promise.all(live.map((i) => i.state()));
      for (const asker of live) {
        for (const user of ['user-1', 'user-7', 'user-13', 'user-22']) {
          const meta = (await asker.get<Meta>(`/meta/${user}`)).body;
          const holder = live.find((_, i) => states[i].active.includes(`0_${meta.partition}`));
          if (!holder || holder.endpoint !== meta.activeHost) return false;
        }
      }
      return true;
    };

    const a = await start();
    const b = await start();
    await running([a, b]);
    await expectMetadataExact([a, b]);
    await checkMetadata([a, b]);
    const c = await start();
    for (let i = 0; i < 10; i++) {
      await checkMetadata([a, b, c]);
      await new Promise((r) => setTimeout(r, 300));
    }
    await running([a, b, c], true);
    expect(
      (await Promise.all([a, b, c].map((i) => i.state()))).map((s) => s.active.length),
    ).toEqual([2, 2, 2]);
    await expectMetadataExact([a, b, c]);
    await b.kill('SIGTERM');
    for (let i = 0; i < 10; i++) {
      await checkMetadata([a, c]);
      await new Promise((r) => setTimeout(r, 300));
    }
    await running([a, c]);
    await expectMetadataExact([a, c]);
    producing = false;
    await flow;
    await producer.disconnect();

    const admin = await ctx.admin();
    await waitFor(
      async () => {
        const offsets = await admin.fetchOffsets({ groupId: ctx.applicationId, topics: [input] });
        return (
          offsets[0].partitions.reduce((n, p) => n + Math.max(0, Number(p.offset)), 0) === sent
        );
      },
      60_000,
      'all input committed',
    );
    const views = await Promise.all([a, c].map((i) => i.get<Record<string, OrderStats>>('/all')));
    const merged = Object.assign({}, ...views.map((v) => v.body)) as Record<string, OrderStats>;
    expect(merged).toEqual(truth);
    expect(metadataChecks).toEqual([]);
  });
});
