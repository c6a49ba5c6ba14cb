// What a client adapter of the reader by assignment returns for one partition, from the
// partition's records decoded by the engine (decodeCommittedRecords): client-independent.
import type {
  FetchedPartition,
  FetchedRecord,
  PartitionFetchPosition,
} from './assigned-partition-reader';

/** One partition of a Fetch response, its record batches decoded by the engine. */
export interface DecodedFetchPartition {
  /** The committed data records of its whole record batches, in offset order. */
  readonly records: FetchedRecord[];
  /** One past the last whole record batch; `undefined` when no batch came whole. */
  readonly batchesEnd: number | undefined;
  readonly highWatermark: string | number;
  readonly lastStableOffset: string | number;
}

/**
 * One partition of a Fetch response the engine decoded, as the port returns it: the records
 * from the fetch offset on (a fetch may start inside a record batch: the broker returns the
 * whole batch), and the next offset past every whole batch returned (`fetchOffset` when none
 * came whole, so the next fetch asks the same offset again).
 */
export function toFetchedPartition(
  position: PartitionFetchPosition,
  data: DecodedFetchPartition,
): FetchedPartition {
  const fetchOffset = position.offset;
  const all = data.records;
  let first = 0;
  while (first < all.length && all[first].offset < fetchOffset) first++;
  return {
    topic: position.topic,
    partition: position.partition,
    fetchOffset,
    records: first === 0 ? all : all.slice(first),
    nextOffset: Math.max(data.batchesEnd ?? fetchOffset, fetchOffset),
    highWatermark: Number(data.highWatermark),
    lastStableOffset: Number(data.lastStableOffset),
  };
}
