import type { RefusalReason } from './instance.authenticator';

/** What each refusal most likely means, for the operator reading the log. */
const MEANING: Record<RefusalReason, string> = {
  unauthenticated: 'a message without the cluster envelope: not an instance of this application',
  bad_signature:
    'a wrong HMAC: a forged message, or an instance with another security.clusterSecret',
  expired:
    'a timestamp outside the replay window: an old message replayed, or clocks further apart than security.replayWindowMs',
  replayed: 'a message accepted once already, sent again',
  wrong_target: 'a message sealed for another instance, sent here',
  overloaded: 'more messages within the replay window than can be remembered',
  malformed_frame: 'a frame that is not a JSON message of the transport',
  oversized: 'more data than queries.remote.maxRequestBytes before authenticating',
  auth_timeout: 'no authenticated message within queries.remote.authTimeoutMs of connecting',
};

/** What a {@link RefusalLog} logs about. */
export interface RefusalLogOptions {
  /** What was refused, as the line names it; default `an instance-to-instance message`. */
  readonly subject?: string;
  /** Meanings that differ from a query's for this channel. */
  readonly meanings?: Partial<Record<RefusalReason, string>>;
  /** At most one line per reason this often, in ms; default 10000. */
  readonly intervalMs?: number;
  readonly clock?: () => number;
}

/**
 * Logs refused messages between instances (queries, hop tokens) without letting a flood of
 * them flood the log: the first refusal of each reason is logged at once, later ones at most
 * once per interval, with how many were not logged in between.
 */
export class RefusalLog {
  private readonly last = new Map<RefusalReason, { at: number; unlogged: number }>();
  private readonly subject: string;
  private readonly meanings: Record<RefusalReason, string>;
  private readonly intervalMs: number;
  private readonly clock: () => number;

  constructor(
    private readonly warn: (message: string) => void,
    options: RefusalLogOptions = {},
  ) {
    this.subject = options.subject ?? 'an instance-to-instance message';
    this.meanings = { ...MEANING, ...options.meanings };
    this.intervalMs = options.intervalMs ?? 10_000;
    this.clock = options.clock ?? Date.now;
  }

  /** Notes one refusal; logs it unless one of the same reason was logged within the interval. */
  refused(reason: RefusalReason, remote: string | undefined, claimedSender?: string): void {
    const now = this.clock();
    const entry = this.last.get(reason);
    if (entry && now - entry.at < this.intervalMs) {
      entry.unlogged++;
      return;
    }
    const unlogged = entry?.unlogged ?? 0;
    this.last.set(reason, { at: now, unlogged: 0 });
    const sender = claimedSender === undefined ? '' : ` claiming to be ${claimedSender}`;
    const more =
      unlogged > 0 ? ` (and ${unlogged} more for this reason since the last such line)` : '';
    this.warn(
      `refused ${this.subject} from ${remote ?? 'an unknown address'}${sender}: ${reason}, ${this.meanings[reason]}${more}`,
    );
  }
}
