import type { HostInfo, KeyQueryMetadata } from '@nest-streams/streams';

/** What to do with a request for a key. */
export type RouteDecision =
  | { readonly action: 'local' }
  | { readonly action: 'forward'; readonly target: HostInfo }
  | { readonly action: 'unavailable'; readonly reason: string };

/** What to do when the owner cannot answer and stale reads are allowed. */
export type StandbyDecision =
  | { readonly action: 'local-standby' }
  | { readonly action: 'forward-standby'; readonly target: HostInfo }
  | { readonly action: 'unavailable'; readonly reason: string };

/** What a routing decision is made from. */
export interface RouteInput {
  /** Where the key lives, from `queryMetadataForKey`. */
  readonly metadata: KeyQueryMetadata;
  /** This instance (`application.server`); undefined for a single instance without one. */
  readonly self: HostInfo | undefined;
  /** Every instance in the current metadata: the only hosts a request may go to. */
  readonly clusterHosts: readonly HostInfo[];
  /** The hop header's value when the request was forwarded to us already. */
  readonly forwardedFrom: string | undefined;
  /**
   * Which queryable copy of the key's partition this instance holds (`KafkaStreams.localCopyOf`;
   * `'none'`: neither); undefined when not known (the metadata is then trusted).
   */
  readonly localCopy?: 'active' | 'standby' | 'none';
}

/**
 * Decides local / forward / unavailable for a key. Pure: the routing interceptor's decisions
 * are exactly this function's. Targets only ever come from the metadata (never from the
 * request), only hosts present in the current metadata are targets, and a request that was
 * forwarded once is never forwarded again.
 */
export function decideRoute({
  metadata,
  self,
  clusterHosts,
  forwardedFrom,
}: RouteInput): RouteDecision {
  if (self === undefined) return { action: 'local' };
  if (!metadata.available) {
    return {
      action: 'unavailable',
      reason: 'no instance is the confirmed owner of the key (rebalancing)',
    };
  }
  const owner = metadata.activeHost;
  if (owner.equals(self)) return { action: 'local' };
  if (forwardedFrom !== undefined) {
    return {
      action: 'unavailable',
      reason: `the request was forwarded here but ${owner.toString()} owns the key now (ownership is moving)`,
    };
  }
  if (!clusterHosts.some((host) => host.equals(owner))) {
    return {
      action: 'unavailable',
      reason: `the owner ${owner.toString()} is not in the current cluster metadata`,
    };
  }
  return { action: 'forward', target: owner };
}

/**
 * Picks a standby copy for a key whose owner cannot answer: this instance when it holds one
 * (listed in the metadata, or found locally), else (for a request not forwarded yet) the first standby in the current metadata other
 * than `exclude`.
 */
export function decideStandby(
  { metadata, self, clusterHosts, forwardedFrom, localCopy }: RouteInput,
  exclude: readonly HostInfo[] = [],
): StandbyDecision {
  if (!metadata.available) {
    return { action: 'unavailable', reason: 'no instance holds the key (rebalancing)' };
  }
  const standbys = metadata.standbyHosts.filter((h) => clusterHosts.some((c) => c.equals(h)));
  // A copy held here that the metadata does not list: a task moving here under cooperative
  // rebalancing is held as a standby until its old owner gives it up.
  if (self !== undefined && (localCopy === 'standby' || standbys.some((h) => h.equals(self))))
    return { action: 'local-standby' };
  if (forwardedFrom !== undefined) {
    return { action: 'unavailable', reason: 'this instance holds no standby copy of the key' };
  }
  const target = standbys.find(
    (h) => !exclude.some((e) => e.equals(h)) && (self === undefined || !h.equals(self)),
  );
  if (!target) return { action: 'unavailable', reason: 'no reachable standby copy of the key' };
  return { action: 'forward-standby', target };
}
