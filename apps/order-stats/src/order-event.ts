import { Serdes } from '@nest-streams/streams';

/** One input event: `{"userId": string, "amount": number}`, keyed by the user id. */
export interface OrderEvent {
  readonly userId: string;
  readonly amount: number;
}

/** Per-user count and sum (the value of `stats-store`). */
export interface OrderStats {
  readonly count: number;
  readonly sum: number;
}

/**
 * The event serde: JSON with a shape check, so a record with wrong types is a deserialization
 * error (skipped and counted by the handler) and never reaches the aggregation.
 */
export const orderEventSerde = Serdes.Json<OrderEvent>({
  guard: (value: unknown): value is OrderEvent => {
    const v = value as Partial<OrderEvent> | null;
    return (
      typeof v === 'object' &&
      v !== null &&
      typeof v.userId === 'string' &&
      typeof v.amount === 'number' &&
      Number.isFinite(v.amount)
    );
  },
});

export const orderStatsSerde = Serdes.Json<OrderStats>();
