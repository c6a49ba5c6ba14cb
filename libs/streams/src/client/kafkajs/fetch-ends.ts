import { AsyncLocalStorage } from 'node:async_hooks';

/** One partition of a fetch kafkajs' broker answered without an error. */
export interface FetchedPartitionEnd {
  readonly topic: string;
  readonly partition: number;
  /** The offset the fetch asked from. */
  readonly fetchOffset: number;
  /** The partition's last stable offset (a read_committed reader's end), else its high watermark. */
  readonly end: number;
}

/** Told every partition's end after each fetch (called synchronously; must not throw). */
export type FetchEndsObserver = (ends: readonly FetchedPartitionEnd[]) => void;

/** kafkajs' Fetch request, as far as the ends go. */
interface FetchRequest {
  readonly topics?: readonly {
    readonly topic: string;
    readonly partitions: readonly { partition: number; fetchOffset: string | number }[];
  }[];
}

/** kafkajs' decoded Fetch response, as far as the ends go. */
interface FetchResponse {
  readonly responses: readonly {
    readonly topicName: string;
    readonly partitions: readonly {
      partition: number;
      errorCode?: number;
      highWatermark: string | number;
      lastStableOffset?: string | number;
    }[];
  }[];
}

/** kafkajs' `Broker`, as far as its `fetch` goes. */
export interface EndReportingBroker {
  fetch(request: FetchRequest): Promise<FetchResponse>;
}

const observers = new AsyncLocalStorage<FetchEndsObserver>();

/**
 * Runs `fn` so that the kafkajs fetches it starts, and those of the loops it starts (a
 * consumer's `run`: its fetch loop), report each partition's end to `observer` (once
 * {@link installFetchEnds} patched kafkajs). What a group consumer's `currentLag` is made of:
 * kafkajs hands over no batch for a partition a fetch found empty, nor any last stable offset.
 */
export function observeFetchEnds<T>(observer: FetchEndsObserver, fn: () => T): T {
  return observers.run(observer, fn);
}

/**
 * Wraps kafkajs 2.2.4's `Broker.prototype.fetch` so that a fetch made under
 * {@link observeFetchEnds} reports, once answered, the end of every partition it asked for and
 * the offset it asked from. Other fetches are untouched. Patched on the prototype, once.
 */
export function installFetchEnds(brokerClass: { prototype: EndReportingBroker }): void {
  const original = brokerClass.prototype.fetch;
  if ((original as { endsReported?: boolean }).endsReported) return;
  const fetch = async function (this: EndReportingBroker, request: FetchRequest) {
    const response = await original.call(this, request);
    const observer = observers.getStore();
    if (observer) observer(fetchedEnds(request, response));
    return response;
  };
  brokerClass.prototype.fetch = Object.assign(fetch, { endsReported: true });
}

function fetchedEnds(request: FetchRequest, response: FetchResponse): FetchedPartitionEnd[] {
  const asked = new Map<string, number>();
  for (const { topic, partitions } of request.topics ?? []) {
    for (const p of partitions) asked.set(`${topic}\u0000${p.partition}`, Number(p.fetchOffset));
  }
  const ends: FetchedPartitionEnd[] = [];
  for (const { topicName: topic, partitions } of response.responses) {
    for (const p of partitions) {
      const fetchOffset = asked.get(`${topic}\u0000${p.partition}`);
      if (fetchOffset === undefined || (p.errorCode ?? 0) !== 0) continue;
      const stable = p.lastStableOffset === undefined ? -1 : Number(p.lastStableOffset);
      const end = stable >= 0 ? stable : Number(p.highWatermark);
      if (end >= 0) ends.push({ topic, partition: p.partition, fetchOffset, end });
    }
  }
  return ends;
}
