import autocannon from 'autocannon';
import { summarizeMillis, type LatencySummary } from './percentiles';

/** One HTTP load: GETs of `paths` (in turn, across all connections) for a fixed time. */
export interface HttpLoadSpec {
  /** `http://127.0.0.1:<port>` */
  readonly baseUrl: string;
  /** Request paths, taken in turn (give them shuffled for random keys). */
  readonly paths: readonly string[];
  /** The exact body each path must answer (every response is checked). */
  readonly expectedBodies: ReadonlyMap<string, string>;
  /** When set, every response must carry `X-Served-By` with this value. */
  readonly expectServedBy?: string;
  readonly durationSeconds: number;
  readonly connections: number;
}

/** What a load measured and what went wrong. */
export interface HttpLoadResult {
  readonly requests: number;
  readonly seconds: number;
  readonly requestsPerSec: number;
  /** From each response's own timing (autocannon's `response` event), 2xx and others alike. */
  readonly latency: LatencySummary;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  /** Responses whose body or `X-Served-By` differed from the expected ones. */
  readonly mismatches: number;
  readonly firstMismatch: string | undefined;
}

interface PathContext {
  path?: string;
}

/**
 * Runs autocannon (programmatic API) against `spec.baseUrl`: each request takes the next path
 * of `spec.paths`, and each response is compared with its expected body (and server). The
 * latency percentiles come from the per-response durations autocannon measures with
 * `process.hrtime` (its own histogram keeps whole milliseconds only).
 */
export async function runHttpLoad(spec: HttpLoadSpec): Promise<HttpLoadResult> {
  if (spec.paths.length === 0) throw new RangeError('no paths to request');
  let cursor = 0;
  let mismatches = 0;
  let firstMismatch: string | undefined;
  const durations: number[] = [];
  let instance: autocannon.Instance | undefined;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: spec.baseUrl,
        connections: spec.connections,
        duration: spec.durationSeconds,
        requests: [
          {
            method: 'GET',
            setupRequest: (request, context) => {
              const path = spec.paths[cursor++ % spec.paths.length];
              (context as PathContext).path = path;
              return { ...request, path };
            },
            onResponse: (status, body, context, headers) => {
              const path = (context as PathContext).path ?? '?';
              const problem = responseProblem(spec, path, status, body, headers);
              if (problem) {
                mismatches++;
                firstMismatch ??= problem;
              }
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  instance?.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
    durations.push(ms);
  });
  const result = await finished;
  const requests = durations.length;
  return {
    requests,
    seconds: result.duration,
    requestsPerSec: requests / result.duration,
    latency: summarizeMillis(durations),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches,
    firstMismatch,
  };
}

/**
 * Why a response is wrong (status, body, or server), or undefined when it is the expected
 * one. Exported for its unit test.
 */
export function responseProblem(
  spec: Pick<HttpLoadSpec, 'expectedBodies' | 'expectServedBy'>,
  path: string,
  status: number,
  body: string,
  headers: Readonly<Record<string, string | string[] | undefined>> | undefined,
): string | undefined {
  const expected = spec.expectedBodies.get(path);
  if (expected === undefined) return `${path}: no expected body`;
  if (status !== 200) return `${path}: status ${status}`;
  if (body !== expected)
    return `${path}: got ${body.slice(0, 120)}, expected ${expected.slice(0, 120)}`;
  if (spec.expectServedBy !== undefined) {
    const servedBy = headerValue(headers, 'x-served-by');
    if (servedBy !== spec.expectServedBy) {
      return `${path}: served by ${servedBy ?? 'nobody'}, expected ${spec.expectServedBy}`;
    }
  }
  return undefined;
}

/** Every way the load went wrong, empty when every request was answered correctly. */
export function loadProblems(result: HttpLoadResult): string[] {
  const problems: string[] = [];
  if (result.requests === 0) problems.push('no request answered');
  if (result.non2xx > 0) problems.push(`${result.non2xx} non-2xx answers`);
  if (result.errors > 0) problems.push(`${result.errors} errors (${result.timeouts} timeouts)`);
  if (result.mismatches > 0) {
    problems.push(`${result.mismatches} wrong answers (${result.firstMismatch ?? '?'})`);
  }
  return problems;
}

function headerValue(
  headers: Readonly<Record<string, string | string[] | undefined>> | undefined,
  name: string,
): string | undefined {
  if (!headers) return undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}
