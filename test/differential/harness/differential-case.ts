/** A step of a case: pipe `[topic, key, value, timestamp]`, or `['@wall', ms]` (advance the wall clock). */
export type CaseStep =
  | readonly [topic: string, key: string | null, value: string | null, timestamp: number]
  | readonly ['@wall', ms: number];

/** One run of a scenario on generated input: what both drivers get, as one JSON line. */
export interface DifferentialCase {
  /** `<scenario>#<seed>/<cache|no-cache>`. */
  readonly id: string;
  readonly scenario: string;
  readonly seed: number;
  readonly caching: boolean;
  readonly steps: readonly CaseStep[];
  readonly outputs: readonly string[];
  readonly stores: readonly { name: string; kind: string; keys?: readonly string[] }[];
}

/** An output record: key and value bytes in base64 (`null` for none), and its timestamp. */
export interface OutputRecord {
  readonly k: string | null;
  readonly v: string | null;
  readonly ts: number;
}

/** A store entry, keys and values as text; windows carry `start`/`end`, timestamped stores `ts`. */
export interface StoreEntry {
  readonly k: string;
  readonly v: string | null;
  readonly ts?: number;
  readonly start?: number;
  readonly end?: number;
}

/** What one driver made of a case. */
export interface CaseResult {
  readonly id: string;
  readonly outputs: Record<string, OutputRecord[]>;
  readonly stores: Record<string, StoreEntry[]>;
  /** The error that stopped the run (its class and message), if any. */
  readonly error?: string | null;
  /** The index of the step that threw it, when a step did. */
  readonly errorStep?: number | null;
}
