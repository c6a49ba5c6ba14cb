import { loadProblems, responseProblem, type HttpLoadResult } from './http-load';

const spec = {
  expectedBodies: new Map([['/stats/user-1', '{"count":2,"sum":30}']]),
};

describe('responseProblem', () => {
  it('accepts the exact expected body with status 200', () => {
    expect(responseProblem(spec, '/stats/user-1', 200, '{"count":2,"sum":30}', {})).toBe(undefined);
  });

  it('reports a wrong status, a wrong body and an unknown path', () => {
    expect(responseProblem(spec, '/stats/user-1', 503, '', {})).toBe('/stats/user-1: status 503');
    expect(responseProblem(spec, '/stats/user-1', 200, '{"count":2,"sum":31}', {})).toBe(
      '/stats/user-1: got {"count":2,"sum":31}, expected {"count":2,"sum":30}',
    );
    expect(responseProblem(spec, '/stats/user-2', 200, '{}', {})).toBe(
      '/stats/user-2: no expected body',
    );
  });

  it('checks X-Served-By case-insensitively when a server is expected', () => {
    const forwarded = { ...spec, expectServedBy: '127.0.0.1:9001' };
    const body = '{"count":2,"sum":30}';
    expect(
      responseProblem(forwarded, '/stats/user-1', 200, body, { 'X-Served-By': '127.0.0.1:9001' }),
    ).toBe(undefined);
    expect(
      responseProblem(forwarded, '/stats/user-1', 200, body, { 'x-served-by': '127.0.0.1:9000' }),
    ).toBe('/stats/user-1: served by 127.0.0.1:9000, expected 127.0.0.1:9001');
    expect(responseProblem(forwarded, '/stats/user-1', 200, body, undefined)).toBe(
      '/stats/user-1: served by nobody, expected 127.0.0.1:9001',
    );
  });
});

describe('loadProblems', () => {
  const clean: HttpLoadResult = {
    requests: 100,
    seconds: 1,
    requestsPerSec: 100,
    latency: { count: 100, p50Ms: 1, p99Ms: 2, maxMs: 3, meanMs: 1.1 },
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    mismatches: 0,
    firstMismatch: undefined,
  };

  it('is empty for a clean load', () => {
    expect(loadProblems(clean)).toEqual([]);
  });

  it('lists every problem', () => {
    expect(
      loadProblems({
        ...clean,
        requests: 0,
        non2xx: 3,
        errors: 2,
        timeouts: 1,
        mismatches: 4,
        firstMismatch: 'x',
      }),
    ).toEqual([
      'no request answered',
      '3 non-2xx answers',
      '2 errors (1 timeouts)',
      '4 wrong answers (x)',
    ]);
  });
});
