/**
 * Which local copy of a store partition answered a read through a `store()` view: the active
 * copy (restored and processing: exact), or a standby copy and how far behind its changelog it
 * was when it answered. A standby's "not found" or value is only as current as `lag` says.
 */
export interface ServedCopy {
  readonly storeName: string;
  readonly partition: number;
  /** True for the active copy of a restored task; false for a standby copy. */
  readonly active: boolean;
  /** Records the copy was behind its changelog's end when it answered (0 for an active copy). */
  readonly lag: number;
}

/** Told of every copy that answered a read (see `StoreQueryParameters.withServedListener`). */
export type ServedListener = (copy: ServedCopy) => void;
