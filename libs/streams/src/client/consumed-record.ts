/**
 * One record as the consumer fetched it, before deserialization: the physical topic name
 * (internal topics carry the application id prefix), partition, offset, timestamp (epoch ms),
 * raw key, value and headers. The same fields a deserialization exception handler gets.
 */
export interface ConsumedRecord {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly timestamp: number;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: { readonly [name: string]: Buffer | string | undefined };
}
