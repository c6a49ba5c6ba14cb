import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { URL } from 'node:url';

/** Options of {@link RetryingHttpClient}. */
export interface RetryingHttpClientOptions {
  /** Attempts in total, the first included; default 5. */
  readonly maxAttempts?: number;
  /** First backoff when the answer has no `Retry-After`, in ms; default 200. */
  readonly baseDelayMs?: number;
  /** Upper bound of any wait (also of a `Retry-After`), in ms; default 10000. */
  readonly maxDelayMs?: number;
  /** Per-attempt timeout, in ms; default 5000. */
  readonly timeoutMs?: number;
  /** Statuses worth retrying; default 502, 503, 504 (and connection errors). */
  readonly retryOn?: readonly number[];
  /** Source of randomness for jitter, for tests; default `Math.random`. */
  readonly random?: () => number;
  /** How to wait, for tests; default `setTimeout`. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** One HTTP answer. */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  /** Attempts it took. */
  readonly attempts: number;
  /** The body parsed as JSON (throws `SyntaxError` when it is not JSON). */
  json<T = unknown>(): T;
}

/** What to send. */
export interface HttpCall {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
}

const RETRIABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
]);

/**
 * A small HTTP client for callers of a streams application that treats a rebalance as what
 * it is — a short wait, not a failure: a 503 (or 502/504, or a refused
 * connection) is retried after `Retry-After` when the answer has one, else after a bounded
 * exponential backoff with full jitter; at most `maxAttempts` attempts, no wait above
 * `maxDelayMs`. Other statuses are returned as they are.
 *
 * @example
 * const answer = await new RetryingHttpClient().request('http://127.0.0.1:8080/stats/u1');
 * if (answer.status === 200) console.log(answer.json());
 *
 * Errors: the last connection error when every attempt failed to connect (the service is
 * down: alert); a last retriable status is returned, not thrown (check `status`).
 */
export class RetryingHttpClient {
  private readonly agent = new Agent({ keepAlive: true });
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly timeoutMs: number;
  private readonly retryOn: ReadonlySet<number>;
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(options: RetryingHttpClientOptions = {}) {
    this.maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? 5));
    this.baseDelayMs = Math.max(0, options.baseDelayMs ?? 200);
    this.maxDelayMs = Math.max(0, options.maxDelayMs ?? 10_000);
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.retryOn = new Set(options.retryOn ?? [502, 503, 504]);
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  async request(url: string, call: HttpCall = {}): Promise<HttpAnswer> {
    for (let attempt = 1; ; attempt++) {
      let answer: HttpAnswer | undefined;
      try {
        answer = await this.once(url, call, attempt);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (attempt >= this.maxAttempts || code === undefined || !RETRIABLE_CODES.has(code)) {
          throw error;
        }
      }
      if (answer && (!this.retryOn.has(answer.status) || attempt >= this.maxAttempts)) {
        return answer;
      }
      await this.sleep(this.delayFor(attempt, answer?.headers['retry-after']));
    }
  }

  /**
   * The wait before attempt `attempt + 1`: `Retry-After` (seconds or an HTTP date) when
   * given, else full jitter over `base * 2^(attempt-1)`; never above `maxDelayMs`.
   */
  delayFor(attempt: number, retryAfter?: string | string[]): number {
    const header = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
    if (header !== undefined) {
      const seconds = Number(header);
      const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
      if (Number.isFinite(ms)) {
        // A little jitter so that clients told the same Retry-After do not return in step.
        const jitter = this.random() * Math.min(this.baseDelayMs, ms * 0.1 + 1);
        return Math.min(this.maxDelayMs, Math.max(0, ms) + jitter);
      }
    }
    const ceiling = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (attempt - 1));
    return this.random() * ceiling;
  }

  /** Releases pooled connections. */
  close(): void {
    this.agent.destroy();
  }

  private once(url: string, call: HttpCall, attempts: number): Promise<HttpAnswer> {
    const target = new URL(url);
    return new Promise<HttpAnswer>((resolve, reject) => {
      const req = httpRequest(
        target,
        {
          method: call.method ?? 'GET',
          headers: {
            ...(call.body !== undefined
              ? { 'content-length': String(Buffer.byteLength(call.body)) }
              : {}),
            ...call.headers,
          },
          agent: this.agent,
          timeout: this.timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const body = Buffer.concat(chunks);
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body,
              attempts,
              json: <T>() => JSON.parse(body.toString('utf8')) as T,
            });
          });
        },
      );
      req.on('timeout', () => {
        const error: NodeJS.ErrnoException = new Error(`no answer within ${this.timeoutMs} ms`);
        error.code = 'ETIMEDOUT';
        req.destroy(error);
      });
      req.on('error', reject);
      if (call.body !== undefined) req.write(call.body);
      req.end();
    });
  }
}
