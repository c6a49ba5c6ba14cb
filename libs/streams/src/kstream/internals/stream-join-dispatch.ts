import type { KeyValueMapper, ValueJoiner } from '../functions';
import type { Joined } from '../joined';
import type { Named } from '../named';
import type { StreamJoined } from '../stream-joined';
import type { JoinWindows } from '../windows/join-windows';
import { streamGlobalTableJoin } from './global/stream-global-join';
import type { KTableValueGetterSupplier } from './ktable-value-getter';
import {
  streamStreamJoin,
  type JoinInput,
  type StreamJoinKind,
} from './stream-join/stream-stream-join';
import type { StreamNode } from './stream-node';
import { streamTableJoin } from './stream-table-join';
import type { TableNode } from './table-node';

/** A global table as a stream joins it: its node and how its rows are read. */
export interface GlobalJoinTarget<KG, VG> {
  readonly node: StreamNode<KG, VG>;
  readonly rows: KTableValueGetterSupplier<KG, VG>;
}

/** What `KStream.join`, `leftJoin` and `outerJoin` take after the other side, in Kafka's order. */
export type JoinArguments<K, V, VO, VR> = readonly [
  second: ValueJoiner<V | null, VO | null, VR, K> | KeyValueMapper<K, V, unknown>,
  third?: JoinWindows | Joined<K, V, VO> | ValueJoiner<V | null, VO | null, VR, K>,
  fourth?: StreamJoined<K, V, VO> | Named,
];

/**
 * Writes a join of `stream` with another stream (`joiner, windows, streamJoined`), a table
 * (`joiner, joined`) or a global table (`keySelector, joiner, named`), as `KStream.join`,
 * `leftJoin` and `outerJoin` take them. Returns the join's node and whether it still needs a
 * repartition (a global table join keeps the stream's key).
 *
 * @throws TopologyError as the join it writes.
 */
export function joinFromStream<K, V, VO, VR>(
  stream: JoinInput<K, V>,
  other: JoinInput<K, VO> | TableNode<K, VO> | GlobalJoinTarget<unknown, VO>,
  args: JoinArguments<K, V, VO, VR>,
  kind: StreamJoinKind,
): JoinInput<K, VR> {
  const [second, third, fourth] = args;
  if ('rows' in other) {
    const joiner = third as ValueJoiner<V, VO | null, VR, K>;
    const keySelector = second as KeyValueMapper<K, V, unknown>;
    const named = fourth as Named | undefined;
    const node = streamGlobalTableJoin(
      stream.node,
      other,
      keySelector,
      joiner,
      named,
      kind === 'left',
    );
    return { node, repartitionRequired: stream.repartitionRequired };
  }
  const joiner = second as ValueJoiner<V | null, VO | null, VR, K>;
  if ('supplier' in other) {
    const joined = third as Joined<K, V, VO> | undefined;
    const node = streamTableJoin(stream, other, joiner, kind === 'left', joined);
    return { node, repartitionRequired: false };
  }
  const windows = third as JoinWindows;
  const streamJoined = fourth as StreamJoined<K, V, VO> | undefined;
  const node = streamStreamJoin(stream, other, joiner, windows, streamJoined, kind);
  return { node, repartitionRequired: false };
}
