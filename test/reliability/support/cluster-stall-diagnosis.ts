import type { ExactView } from './cluster-exact-check';
import type { ClusterFaultFixture, FaultApp } from './cluster-fault-fixture';
import { threadTransactionalIds } from './cluster-fault-injectors';
import { TransactionStateProbe } from './transaction-state-probe';

/** Who holds an application back when its answers do not become exact. */
export interface StallVerdict {
  /**
   * `test`: the feed did not produce what it counts (its producer failed, or the topic holds
   * more or fewer records than it acknowledged); `broker`: the cluster cannot serve the input
   * (a partition without a leader or short of in-sync replicas, no group coordinator, records it
   * acknowledged missing); `client`: the cluster serves everything and the application does not
   * catch up (a partition not consumed or not committed, or committed without its update).
   */
  readonly culprit: 'test' | 'broker' | 'client';
  readonly reason: string;
  readonly evidence: Record<string, unknown>;
}

interface SeatView {
  readonly seat: number;
  readonly state?: string;
  readonly active?: number[];
  readonly error?: string;
}

/**
 * Looks at the feed, the cluster and the application once its answers did not become exact in
 * time, and says which of the three holds it back, with what it saw: the input partitions'
 * leaders, ISR and end offsets, the group's committed offsets, each instance's state and active
 * partitions, and (exactly-once) the transactions still open at their coordinators.
 */
export async function diagnoseStall(
  fixture: ClusterFaultFixture,
  app: FaultApp,
  view: ExactView,
): Promise<StallVerdict> {
  const { feed, kafka, topic, admin } = fixture;
  const evidence: Record<string, unknown> = {
    behind: view.behind,
    usersBehind: view.usersBehind,
    eventsBehind: view.eventsBehind,
    nodes: Object.fromEntries(kafka.nodeIds.map((id) => [id, kafka.nodeState(id)])),
    dispatched: feed.dispatched,
    acknowledged: feed.acknowledged,
  };
  if (fixture.feedError !== undefined || feed.acknowledged < feed.dispatched) {
    const why = fixture.feedError ? String(fixture.feedError) : 'events still unacknowledged';
    return { culprit: 'test', reason: `the feed did not finish producing: ${why}`, evidence };
  }
  const partitions = (await kafka.partitions([topic]).catch(() => [])).sort(
    (a, b) => a.partition - b.partition,
  );
  evidence.input = partitions.map((p) => `p${p.partition} leader ${p.leader} isr [${p.isr}]`);
  const unserved = partitions.filter((p) => p.leader < 0 || p.isr.length < 2);
  if (partitions.length === 0 || unserved.length > 0) {
    return {
      culprit: 'broker',
      reason: `input partitions without a leader or short of min ISR: ${JSON.stringify(evidence.input)}`,
      evidence,
    };
  }
  const ends = new Map(
    (await admin.fetchTopicOffsets(topic)).map((o) => [o.partition, Number(o.high)]),
  );
  const records = [...ends.values()].reduce((a, b) => a + b, 0);
  evidence.inputRecords = records;
  if (records !== feed.acknowledged) {
    const broker = records < feed.acknowledged;
    return {
      culprit: broker ? 'broker' : 'test',
      reason: broker
        ? `the input holds ${records} records, ${feed.acknowledged} were acknowledged`
        : `the input holds ${records} records for ${feed.acknowledged} events: the feed's producer wrote duplicates, its truth is off`,
      evidence,
    };
  }
  const coordinator = await kafka.groupCoordinatorOf(app.applicationId).catch(String);
  evidence.groupCoordinator = coordinator;
  if (typeof coordinator === 'string') {
    return { culprit: 'broker', reason: `no group coordinator: ${coordinator}`, evidence };
  }
  const [entry] = await admin.fetchOffsets({ groupId: app.applicationId, topics: [topic] });
  const committed = new Map(entry.partitions.map((p) => [p.partition, Number(p.offset)]));
  const behind = [...ends]
    .filter(([p, end]) => (committed.get(p) ?? -1) < end)
    .map(([p, end]) => `p${p} committed ${committed.get(p)} of ${end}`);
  evidence.committedBehind = behind;
  evidence.seats = await seatViews(app);
  if (app.guarantee === 'exactly_once_v2') {
    const probe = new TransactionStateProbe(kafka.brokers);
    evidence.openTransactions = await probe
      .open(threadTransactionalIds(fixture))
      .catch(String)
      .finally(() => probe.close());
  }
  if (behind.length > 0) {
    return {
      culprit: 'client',
      reason: `the cluster serves every input partition, the application has not consumed and committed: ${behind.join(', ')}`,
      evidence,
    };
  }
  return {
    culprit: 'client',
    reason: `every input offset is committed, yet ${view.usersBehind} users are short of ${view.eventsBehind} events: committed without the state update, or the query path answers from an old copy`,
    evidence,
  };
}

async function seatViews(app: FaultApp): Promise<SeatView[]> {
  return Promise.all(
    app.cluster.seats.map(async (seat): Promise<SeatView> => {
      try {
        const answer = await app.cluster.get(seat, '/streams/metadata', 5_000);
        const body = JSON.parse(answer.body) as {
          state?: string;
          instances?: { host: string; stores: Record<string, { active: number[] }> }[];
        };
        const self = body.instances?.find((i) => i.host === `127.0.0.1:${seat.port}`);
        const active = self ? Object.values(self.stores)[0]?.active : undefined;
        return { seat: seat.index, state: body.state, active };
      } catch (error) {
        return { seat: seat.index, error: String(error) };
      }
    }),
  );
}
