/**
 * HTTP polling of the example application's contract: `GET /stats/:userId` answers classified
 * the way a caller sees them (local, forwarded, stale standby, 503, down), and readiness.
 */

/** A user's stats as `GET /stats/:userId` answers them. */
export interface Stats {
  readonly count: number;
  readonly sum: number;
}

/**
 * What one query got:
 * - `local`: 200 served by the instance asked (`X-Served-By` names it);
 * - `forwarded`: 200 served by another instance (`X-Served-By` names the owner);
 * - `stale`: 200 from a standby copy (`X-Stale: true`, `X-Lag`);
 * - `unmarked`: 200 without `X-Served-By` (the contract says every answer has it);
 * - `not-found`: 404, an unknown user;
 * - `unavailable`: 503 (rebalancing, restoring), normally with `Retry-After`;
 * - `down`: no HTTP answer (connection refused or reset: the instance is not there);
 * - `error`: anything else (another status, a body that is not stats, a timeout).
 */
export type AnswerKind =
  'local' | 'forwarded' | 'stale' | 'unmarked' | 'not-found' | 'unavailable' | 'down' | 'error';

/** One answer, classified. */
export interface StatsAnswer {
  readonly kind: AnswerKind;
  /** The HTTP status, when there was an answer. */
  readonly status?: number;
  /** `X-Served-By`: the instance whose store answered. */
  readonly servedBy?: string;
  /** `X-Lag` of a standby answer, in records. */
  readonly lag?: number;
  /** `Retry-After` of a 503, as sent. */
  readonly retryAfter?: string;
  /** The stats of a 200 answer. */
  readonly stats?: Stats;
  /** Why it is `down` or `error`, or the message of a 4xx/5xx body. */
  readonly detail?: string;
  /** Round trip, ms. */
  readonly ms: number;
}

/** The headers the classification reads (a `Headers` object fits). */
export interface HeaderSource {
  get(name: string): string | null;
}

/**
 * Classifies an HTTP answer of `GET /stats/:userId` sent to the instance advertised as
 * `queried` (`host:port`). Pure: the body is the parsed JSON (or undefined).
 */
export function classifyStatsAnswer(
  queried: string,
  status: number,
  headers: HeaderSource,
  body: unknown,
  ms = 0,
): StatsAnswer {
  const servedBy = headers.get('x-served-by') ?? undefined;
  const base = { status, servedBy, ms };
  if (status === 200) {
    if (!isStats(body)) {
      return { ...base, kind: 'error', detail: `200 without {count, sum}: ${preview(body)}` };
    }
    const stats = { count: body.count, sum: body.sum };
    if (headers.get('x-stale')?.toLowerCase() === 'true') {
      const lagText = headers.get('x-lag');
      const lag = lagText === null || lagText.trim() === '' ? undefined : Number(lagText);
      return {
        ...base,
        kind: 'stale',
        stats,
        lag: lag !== undefined && Number.isFinite(lag) ? lag : undefined,
      };
    }
    if (servedBy === undefined) return { ...base, kind: 'unmarked', stats };
    return { ...base, kind: servedBy === queried ? 'local' : 'forwarded', stats };
  }
  const detail = messageOf(body);
  if (status === 404) return { ...base, kind: 'not-found', detail };
  if (status === 503) {
    return {
      ...base,
      kind: 'unavailable',
      retryAfter: headers.get('retry-after') ?? undefined,
      detail,
    };
  }
  return { ...base, kind: 'error', detail: `HTTP ${status}${detail ? `: ${detail}` : ''}` };
}

/**
 * `GET http://<endpoint>/stats/<userId>`, classified. Never rejects: a refused or reset
 * connection is `down`, a timeout or anything unexpected is `error`.
 */
export async function queryStats(
  endpoint: string,
  userId: string,
  timeoutMs = 3000,
): Promise<StatsAnswer> {
  const started = performance.now();
  try {
    const response = await fetch(`http://${endpoint}/stats/${encodeURIComponent(userId)}`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    return classifyStatsAnswer(
      endpoint,
      response.status,
      response.headers,
      parseJson(text),
      performance.now() - started,
    );
  } catch (error) {
    const ms = performance.now() - started;
    const code = networkErrorCode(error);
    if (code === 'TimeoutError') return { kind: 'error', detail: 'timeout', ms };
    if (code !== undefined) return { kind: 'down', detail: code, ms };
    const message = (error as { message?: unknown } | null)?.message;
    return { kind: 'error', detail: typeof message === 'string' ? message : String(error), ms };
  }
}

/** True when `GET http://<endpoint>/health/ready` answers 200. Never rejects. */
export async function isReady(endpoint: string, timeoutMs = 2000): Promise<boolean> {
  try {
    const response = await fetch(`http://${endpoint}/health/ready`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/** Thrown by {@link waitUntil} when its time is up. */
export class WaitTimeoutError extends Error {
  override readonly name = 'WaitTimeoutError';
}

/** Thrown by the demo's waits when its stop signal fired. */
export class StoppedError extends Error {
  override readonly name = 'StoppedError';
  constructor() {
    super('stopped');
  }
}

/**
 * Polls `condition` every `intervalMs` until it is true. Rejects with a
 * {@link WaitTimeoutError} after `timeoutMs`, with a {@link StoppedError} when `signal`
 * aborts, and with whatever `check` throws (a check that the awaited process still lives).
 */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  options: {
    readonly timeoutMs: number;
    readonly what: string;
    readonly intervalMs?: number;
    readonly signal?: AbortSignal;
    readonly check?: () => void;
  },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (options.signal?.aborted) throw new StoppedError();
    options.check?.();
    if (await condition()) return;
    if (Date.now() > deadline) {
      throw new WaitTimeoutError(
        `timed out after ${options.timeoutMs / 1000} s waiting for ${options.what}`,
      );
    }
    await sleep(options.intervalMs ?? 250, options.signal);
  }
}

/** Waits `ms`, or less when `signal` aborts (then resolves; callers check the signal). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

function isStats(body: unknown): body is Stats {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as Record<string, unknown>).count === 'number' &&
    typeof (body as Record<string, unknown>).sum === 'number'
  );
}

function messageOf(body: unknown): string | undefined {
  if (typeof body === 'object' && body !== null) {
    const message = (body as Record<string, unknown>).message;
    if (typeof message === 'string') return message;
    if (Array.isArray(message)) return message.map(String).join('; ');
  }
  return typeof body === 'string' && body !== '' ? body.slice(0, 120) : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function preview(body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return (text ?? String(body)).slice(0, 80);
}

/**
 * The system error code behind a failed fetch (`ECONNREFUSED`, `ECONNRESET`, ...), or
 * `TimeoutError` when it timed out; undefined for anything else.
 */
function networkErrorCode(error: unknown): string | undefined {
  // Duck-typed: errors from fetch may come from another realm (a test VM), failing instanceof.
  const fields = (
    e: unknown,
  ): { name?: unknown; message?: unknown; code?: unknown; cause?: unknown } =>
    typeof e === 'object' && e !== null ? (e as Record<string, unknown>) : {};
  const top = fields(error);
  if (top.name === 'TimeoutError' || top.name === 'AbortError') return 'TimeoutError';
  let cause: unknown = error;
  for (let depth = 0; depth < 4 && typeof cause === 'object' && cause !== null; depth++) {
    const { code, message } = fields(cause);
    if (typeof code === 'string' && code.startsWith('E')) return code;
    if (message === 'other side closed') return 'ECONNRESET';
    cause = fields(cause).cause;
  }
  return top.message === 'fetch failed' ? 'fetch failed' : undefined;
}
