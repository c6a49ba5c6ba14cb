/**
 * How far a store has processed its inputs: per input topic and partition, the offset of the
 * last record reflected in the store (Kafka Streams' `Position`). Plain data.
 */
export type Position = Readonly<Record<string, Readonly<Record<string, number>>>>;

/**
 * A lower bound a query's answer must reflect (read-your-writes): every listed input
 * partition must have been processed at least up to the given offset. `undefined` means
 * unbounded.
 */
export const PositionBound = {
  unbounded: (): undefined => undefined,
  /** The answer must reflect at least `position`. */
  at: (position: Position): Position => position,
} as const;

/** Whether `position` reaches `bound` for every partition the bound names. */
export function satisfies(position: Position, bound: Position | undefined): boolean {
  if (!bound) return true;
  for (const [topic, partitions] of Object.entries(bound)) {
    for (const [partition, offset] of Object.entries(partitions)) {
      const reached = position[topic]?.[partition];
      if (reached === undefined || reached < offset) return false;
    }
  }
  return true;
}

/** Merges positions (max per partition). */
export function mergePositions(positions: readonly Position[]): Position {
  const merged: Record<string, Record<string, number>> = {};
  for (const position of positions) {
    for (const [topic, partitions] of Object.entries(position)) {
      const into = (merged[topic] ??= {});
      for (const [partition, offset] of Object.entries(partitions)) {
        into[partition] = Math.max(into[partition] ?? -1, offset);
      }
    }
  }
  return merged;
}
