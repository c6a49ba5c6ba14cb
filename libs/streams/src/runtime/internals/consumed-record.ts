/** One record as the consumer fetched it, before deserialization. */
export interface ConsumedRecord {
  /** The physical topic name (internal topics carry the application id prefix). */
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  /** epoch ms */
  readonly timestamp: number;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: { readonly [name: string]: Buffer | string | undefined };
}
