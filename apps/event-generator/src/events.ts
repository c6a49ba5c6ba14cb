import { SeededRandom } from './random';

/** Smallest amount an event carries, in cents (0.01). */
export const MIN_AMOUNT_CENTS = 1;
/** Largest amount an event carries, in cents (999.99). */
export const MAX_AMOUNT_CENTS = 99_999;

/** One valid event of the contract: key and value `userId`, amount in integer cents. */
export interface OrderEvent {
  /** Position in the run's sequence of valid events, from 0. */
  readonly index: number;
  readonly userId: string;
  /** The amount in integer cents; the record carries `cents / 100`. */
  readonly cents: number;
}

/** One record as it goes to Kafka: UTF-8 key, value text, timestamp (epoch ms). */
export interface OutgoingRecord {
  readonly key: string;
  readonly value: string;
  readonly timestamp: number;
}

/**
 * The user id of user number `n` (1-based) among `users`: `user-001`..`user-999`, padded to
 * at least three digits and to the width of `users` (`user-0001`..`user-1000`).
 */
export function userId(n: number, users: number): string {
  const width = Math.max(3, String(users).length);
  return `user-${String(n).padStart(width, '0')}`;
}

/** Every user id of a run of `users` users, in order. */
export function allUserIds(users: number): string[] {
  return Array.from({ length: users }, (_, i) => userId(i + 1, users));
}

/** The amount a record carries for `cents`: exact to 2 decimals in its JSON text. */
export function centsToAmount(cents: number): number {
  return cents / 100;
}

/** The record value of a valid event: `{"userId": string, "amount": number}`. */
export function eventValue(event: Pick<OrderEvent, 'userId' | 'cents'>): string {
  return JSON.stringify({ userId: event.userId, amount: centsToAmount(event.cents) });
}

/**
 * The seeded sequence of valid events: event `i` is the same for a given `seed` and `users`
 * on every run, whatever the rate, the batch sizes or how long the run lasts (a shorter run
 * produces a prefix of a longer one). Users are drawn uniformly; amounts uniformly in
 * 0.01..999.99.
 */
export class EventSequence {
  private readonly random: SeededRandom;
  private nextIndex = 0;

  constructor(
    readonly users: number,
    readonly seed: number,
  ) {
    if (!Number.isInteger(users) || users < 1) {
      throw new RangeError(`users must be a positive integer, got ${users}`);
    }
    this.random = new SeededRandom(seed);
  }

  /** The next event of the sequence. */
  next(): OrderEvent {
    const user = this.random.nextInt(1, this.users);
    const cents = this.random.nextInt(MIN_AMOUNT_CENTS, MAX_AMOUNT_CENTS);
    return { index: this.nextIndex++, userId: userId(user, this.users), cents };
  }

  /** The next `count` events. */
  take(count: number): OrderEvent[] {
    return Array.from({ length: count }, () => this.next());
  }
}

/**
 * Values an application must skip (deserialization errors) without counting them: text that
 * is not JSON, JSON that is cut short, and JSON of the wrong shape or types. `%u` stands for
 * a real user id, so a record wrongly accepted shows up as a wrong total for that user.
 */
export const MALFORMED_VALUES: readonly string[] = [
  'this is not json',
  '{"userId":"%u","amount":',
  '{"userId":"%u","amount":"12.50"}',
  '{"userId":7,"amount":1.5}',
  '{"userId":"%u"}',
  '{"userId":"%u","amount":null}',
  '[1,2,3]',
  '"%u"',
  '{"userId":"%u","amount":true}',
];

/**
 * Malformed record number `j` (from 0) of a run of `users` users: the kinds of
 * {@link MALFORMED_VALUES} in turn, keyed by a real user id.
 */
export function malformedRecord(
  j: number,
  users: number,
): { readonly key: string; readonly value: string } {
  const key = userId((j % users) + 1, users);
  const template = MALFORMED_VALUES[j % MALFORMED_VALUES.length];
  return { key, value: template.replaceAll('%u', key) };
}
