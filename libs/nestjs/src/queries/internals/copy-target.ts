import { HostInfo, StateStoreNotAvailableError } from '@nest-streams/streams';
import { RemoteQueryError } from '../../errors/remote-query.error';
import type { KeyLocation } from '../../ownership/internals/key-owner.locator';
import type { ReadTarget } from '../../ownership/internals/owner-then-standby';

/**
 * The copy `copyAt` names: that instance's, the active one when it owns the key, else its
 * standby (a copy it does not hold answers as migrated).
 *
 * @throws StateStoreNotAvailableError while no instance is the confirmed owner (rebalancing);
 *   RemoteQueryError `BAD_QUERY_ENDPOINT` for a `copyAt` that is not `host:port`.
 */
export function copyTarget(store: string, location: KeyLocation, copyAt: string): ReadTarget {
  const { metadata, self } = location;
  if (!metadata.available) {
    throw new StateStoreNotAvailableError(
      `no instance is the confirmed owner of the key in store '${store}' (rebalancing): retry shortly`,
    );
  }
  const host = hostOf(copyAt);
  const standby = !metadata.activeHost.equals(host);
  return self === undefined || host.equals(self)
    ? { local: true, standby }
    : { local: false, host, standby };
}

/** The instance `copyAt` names. */
function hostOf(endpoint: string): HostInfo {
  try {
    return HostInfo.parse(endpoint);
  } catch (error) {
    throw new RemoteQueryError(
      'BAD_QUERY_ENDPOINT',
      false,
      `copyAt '${endpoint}' is not an instance's host:port`,
      endpoint,
      { cause: error },
    );
  }
}
