import { StreamsError } from './streams.error';

/**
 * A topology that cannot run: a duplicate or unknown node name, a processor without parents,
 * a store connected to nothing, sources of one sub-topology with different partition counts.
 * What to do: fix the topology (or the DSL calls) named in the message; never retriable.
 */
export class TopologyError extends StreamsError.coded('TOPOLOGY_INVALID', false) {}
