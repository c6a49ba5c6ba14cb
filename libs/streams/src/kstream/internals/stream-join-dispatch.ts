import type { ValueJoiner } from '../functions';
import type { Joined } from '../joined';
import type { StreamJoined } from '../stream-joined';
import type { JoinWindows } from '../windows/join-windows';
import {
  streamStreamJoin,
  type JoinInput,
  type StreamJoinKind,
} from './stream-join/stream-stream-join';
import type { StreamNode } from './stream-node';
import { streamTableJoin } from './stream-table-join';
import type { TableNode } from './table-node';

/**
 * Writes a join of `stream` with another stream (windowed, `windowsOrJoined` a `JoinWindows`)
 * or a table (`windowsOrJoined` a `Joined`), as `KStream.join`, `leftJoin` and `outerJoin`
 * take them. Returns the join's node.
 *
 * @throws TopologyError as the join it writes.
 */
export function joinFromStream<K, V, VO, VR>(
  stream: JoinInput<K, V>,
  other: JoinInput<K, VO> | TableNode<K, VO>,
  joiner: ValueJoiner<V | null, VO | null, VR, K>,
  windowsOrJoined: JoinWindows | Joined<K, V, VO> | undefined,
  streamJoined: StreamJoined<K, V, VO> | undefined,
  kind: StreamJoinKind,
): StreamNode<K, VR> {
  if ('supplier' in other) {
    const joined = windowsOrJoined as Joined<K, V, VO> | undefined;
    return streamTableJoin(stream, other, joiner, kind === 'left', joined);
  }
  const windows = windowsOrJoined as JoinWindows;
  return streamStreamJoin(stream, other, joiner, windows, streamJoined, kind);
}
