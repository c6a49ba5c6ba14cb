import { Inject, Injectable } from '@nestjs/common';
import type { StreamsMetadata } from '@nest-streams/streams';
import { KafkaStreamsHost } from '../../client/internals/kafka-streams.host';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import { InteractiveQueryClient } from '../../queries/internals/interactive-query.client';
import { fromWire } from '../../queries/internals/wire-codec';
import { OwnerUnreachableError } from '../../errors/owner-unreachable.error';
import { InstanceReporter, type InstanceReport, type RestoreState } from './instance-reporter';

/** One copy of one store partition on one instance. */
export interface PartitionCopy {
  readonly partition: number;
  readonly role: 'active' | 'standby' | 'warmup';
  /** Records the copy is behind its changelog (standbys, and actives while restoring). */
  readonly lag?: number;
  /** An active copy still restoring: how far. */
  readonly restoring?: { readonly restored: number; readonly total: number };
}

/**
 * One instance on the cluster page: `up` (it answered), `unreachable` (in the group's
 * metadata but it did not answer), or `left` (it was in the metadata earlier and is no longer).
 */
export interface InstanceView {
  readonly host: string;
  /** The instance serving the page. */
  readonly self: boolean;
  readonly status: 'up' | 'unreachable' | 'left';
  /** Why there is no report, or what is wrong with it. */
  readonly problem?: string;
  /** Epoch ms at which the metadata last listed it. */
  readonly lastSeenAt: number;
  readonly report?: InstanceReport;
  /** Its copies per store, partitions ascending. */
  readonly stores: Readonly<Record<string, readonly PartitionCopy[]>>;
}

/** The whole application as the page shows it. */
export interface ClusterView {
  readonly applicationId: string;
  readonly servedBy: string;
  readonly at: number;
  /** How far back the instances' live figures go (`dashboard.historyMs`). */
  readonly figuresWindowMs: number;
  /** Every store and the partitions any instance holds a copy of. */
  readonly stores: readonly { readonly name: string; readonly partitions: readonly number[] }[];
  readonly instances: readonly InstanceView[];
}

/**
 * Builds the cluster page's view: every instance of the group's metadata (the latest
 * assignment this instance holds), its active, standby and warm-up copies per store and
 * partition, and its own report (state, rebalances, lags, restores, figures) fetched from it
 * over the instance-to-instance query transport; an instance that does not answer is
 * `unreachable`, one that left the metadata is listed as `left` for `dashboard.historyMs`.
 * Never throws for an instance's failure.
 */
@Injectable()
export class ClusterViewBuilder {
  private readonly seen = new Map<string, number>();

  constructor(
    @Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings,
    @Inject(KafkaStreamsHost) private readonly host: KafkaStreamsHost,
    @Inject(InstanceReporter) private readonly reporter: InstanceReporter,
    @Inject(InteractiveQueryClient) private readonly client: InteractiveQueryClient,
  ) {}

  async view(now = Date.now()): Promise<ClusterView> {
    const streams = this.host.created ? this.host.streams : undefined;
    const subtopologies = streams?.topology.subtopologies() ?? [];
    const storesOf = new Map(subtopologies.map((s) => [s.id, s.stores]));
    const self = this.settings.self;
    const metadata = streams?.metadataForAllStreamsClients() ?? [];
    const listed: (StreamsMetadata | undefined)[] = [...metadata];
    if (!metadata.some((m) => self !== undefined && m.hostInfo.equals(self))) {
      listed.unshift(undefined); // this instance, not (or not yet) in the metadata
    }
    const instances = await Promise.all(listed.map((m) => this.instanceView(m, storesOf, now)));
    for (const instance of instances) this.seen.set(instance.host, now);
    for (const [host, lastSeenAt] of this.seen) {
      if (instances.some((i) => i.host === host)) continue;
      if (now - lastSeenAt > this.settings.dashboard.historyMs) {
        this.seen.delete(host);
        continue;
      }
      instances.push({ host, self: false, status: 'left', lastSeenAt, stores: {} });
    }
    const partitions = new Map<string, Set<number>>();
    for (const sub of subtopologies) for (const s of sub.stores) partitions.set(s, new Set());
    for (const instance of instances) {
      for (const [store, copies] of Object.entries(instance.stores)) {
        for (const copy of copies) partitions.get(store)?.add(copy.partition);
      }
    }
    return {
      applicationId: this.settings.streams.applicationId,
      servedBy: this.settings.servedBy,
      at: now,
      figuresWindowMs: this.settings.dashboard.historyMs,
      stores: [...partitions].map(([name, set]) => ({
        name,
        partitions: [...set].sort((a, b) => a - b),
      })),
      instances: instances.sort(
        (a, b) =>
          Number(a.status === 'left') - Number(b.status === 'left') || a.host.localeCompare(b.host),
      ),
    };
  }

  private async instanceView(
    metadata: StreamsMetadata | undefined,
    storesOf: ReadonlyMap<number, readonly string[]>,
    now: number,
  ): Promise<InstanceView> {
    const isSelf =
      metadata === undefined || (this.settings.self?.equals(metadata.hostInfo) ?? false);
    const host = metadata?.hostInfo.toString() ?? this.settings.servedBy;
    let report: InstanceReport | undefined;
    let problem: string | undefined;
    let status: InstanceView['status'] = 'up';
    try {
      report = isSelf ? await this.reporter.report() : await this.remoteReport(metadata!);
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
      if (error instanceof OwnerUnreachableError) status = 'unreachable';
    }
    const tasks = metadata
      ? { active: metadata.activeTasks, standby: metadata.standbyTasks }
      : { active: report?.tasks.active ?? [], standby: report?.tasks.standby ?? [] };
    return {
      host,
      self: isSelf,
      status,
      ...(problem === undefined ? {} : { problem }),
      lastSeenAt: now,
      ...(report === undefined ? {} : { report }),
      stores: copiesOf(tasks, storesOf, report),
    };
  }

  private async remoteReport(metadata: StreamsMetadata): Promise<InstanceReport> {
    const endpoint = metadata.queryEndpoint;
    if (!endpoint) {
      throw new Error('serves no instance-to-instance queries (queries.remote is off there)');
    }
    const response = await this.client.send(endpoint, {
      version: 1,
      target: endpoint,
      from: this.settings.queryEndpoint ?? this.settings.servedBy,
      instanceReport: true,
    });
    if (!response.ok) {
      throw new Error(`sends no report: ${response.failure.message} (${response.failure.code})`);
    }
    return fromWire(response.result) as InstanceReport;
  }
}

/** An instance's copies per store, from its tasks (`<subtopology>_<partition>`) and report. */
function copiesOf(
  tasks: { readonly active: readonly string[]; readonly standby: readonly string[] },
  storesOf: ReadonlyMap<number, readonly string[]>,
  report: InstanceReport | undefined,
): Record<string, PartitionCopy[]> {
  const result: Record<string, PartitionCopy[]> = {};
  const lagOf = (store: string, partition: number) =>
    report?.lags.find((l) => l.store === store && l.partition === partition)?.lag;
  const restoreOf = (store: string, partition: number): RestoreState | undefined =>
    report?.restores.find((r) => r.store === store && r.partition === partition);
  const add = (task: string, role: 'active' | 'standby') => {
    const [sub, partition] = task.split('_').map(Number);
    for (const store of storesOf.get(sub) ?? []) {
      const lag = lagOf(store, partition);
      const restore = role === 'active' ? restoreOf(store, partition) : undefined;
      const restoring = role === 'active' && report?.tasks.restoring.includes(task);
      const copy: PartitionCopy = {
        partition,
        role: role === 'standby' && report?.tasks.warmup.includes(task) ? 'warmup' : role,
        ...(lag === undefined || (role === 'active' && !restoring) ? {} : { lag }),
        ...(restoring && restore
          ? { restoring: { restored: restore.restored, total: restore.total } }
          : {}),
      };
      (result[store] ??= []).push(copy);
    }
  };
  for (const task of tasks.active) add(task, 'active');
  for (const task of tasks.standby) add(task, 'standby');
  for (const copies of Object.values(result)) copies.sort((a, b) => a.partition - b.partition);
  return result;
}
