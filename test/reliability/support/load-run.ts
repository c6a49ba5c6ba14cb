import autocannon from 'autocannon';
import type { UserStats } from './http-cluster';

/** One autocannon run against one instance, cycling through a list of users. */
export interface LoadRunOptions {
  /** `host:port` of the instance the requests go to. */
  readonly endpoint: string;
  /** Users asked, round-robin over every connection (`GET /stats/<user>`). */
  readonly users: readonly string[];
  readonly connections: number;
  readonly durationSeconds: number;
  /** A request without an answer after this long counts as a timeout. */
  readonly timeoutSeconds: number;
  readonly truth: ReadonlyMap<string, UserStats>;
  readonly ownerOf: ReadonlyMap<string, string>;
}

/** What a run measured and checked. */
export interface LoadRunFigures {
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  readonly latencyMaxMs: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
  readonly resets: number;
  /** Answers checked (every answer autocannon recorded). */
  readonly answersChecked: number;
  /** Answers not 200 with the user's exact totals from its owner (a stale answer is wrong). */
  readonly wrongAnswers: number;
  /** Of the wrong answers: those from a standby copy (`X-Stale: true`). */
  readonly staleAnswers: number;
  /** Answers for users owned by the other instance (so forwarded). */
  readonly forwardedAnswers: number;
  readonly seconds: number;
  /** The first few wrong answers, for the failure message. */
  readonly samples: readonly string[];
}

interface ClientContext {
  user?: string;
}

/**
 * Runs autocannon (programmatic API, one request definition whose `setupRequest` picks the next
 * user and whose `onResponse` checks the body against the truth and `X-Served-By` against the
 * owner) and returns its figures.
 */
export async function runLoad(options: LoadRunOptions): Promise<LoadRunFigures> {
  let next = 0;
  let answersChecked = 0;
  let wrongAnswers = 0;
  let staleAnswers = 0;
  let forwardedAnswers = 0;
  const samples: string[] = [];
  const started = Date.now();
  const result = await autocannon({
    url: `http://${options.endpoint}`,
    connections: options.connections,
    duration: options.durationSeconds,
    pipelining: 1,
    timeout: options.timeoutSeconds,
    requests: [
      {
        method: 'GET',
        setupRequest: (request, context: ClientContext) => {
          const user = options.users[next++ % options.users.length];
          context.user = user;
          return { ...request, method: 'GET', path: `/stats/${user}` };
        },
        onResponse: (status, body, context: ClientContext, headers) => {
          answersChecked++;
          const user = context.user ?? '?';
          const servedBy = headerValue(headers, 'x-served-by');
          const owner = options.ownerOf.get(user);
          if (owner !== options.endpoint) forwardedAnswers++;
          const stale = headerValue(headers, 'x-stale');
          const seen = JSON.stringify({ user, status, body: parse(body), servedBy, stale });
          const want = JSON.stringify({
            user,
            status: 200,
            body: options.truth.get(user),
            servedBy: owner,
            stale: undefined,
          });
          if (seen !== want) {
            wrongAnswers++;
            if (stale === 'true') staleAnswers++;
            if (samples.length < 5) samples.push(`${seen} expected ${want}`);
          }
        },
      },
    ],
  });
  return {
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    latencyMaxMs: result.latency.max,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    resets: result.resets,
    answersChecked,
    wrongAnswers,
    staleAnswers,
    forwardedAnswers,
    seconds: (Date.now() - started) / 1000,
    samples,
  };
}

function headerValue(headers: Record<string, unknown> | undefined, name: string): unknown {
  if (headers === undefined) return undefined;
  const key = Object.keys(headers).find((h) => h.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}
