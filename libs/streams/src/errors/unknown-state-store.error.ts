import { InvalidStateStoreError } from './invalid-state-store.error';

/**
 * A processor asked for a store it is not connected to, or a query named a store the topology
 * does not have. What to do: connect the store to the processor
 * (`Topology.connectProcessorAndStateStores`) or fix the store name; never retriable.
 */
export class UnknownStateStoreError extends InvalidStateStoreError.coded(
  'UNKNOWN_STATE_STORE',
  false,
) {}
