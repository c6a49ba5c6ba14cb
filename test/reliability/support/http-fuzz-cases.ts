import type { HttpPrng } from './http-prng';
import type { RawRequest } from './http-raw-client';
import type { UserStats } from './http-cluster';

/** What the answer to a fuzz case must be, beyond the rules every answer follows. */
export type FuzzExpectation =
  /** Exactly this status and body, served by this instance (`X-Served-By`), never stale. */
  | {
      readonly kind: 'exact';
      readonly status: number;
      readonly body: unknown;
      readonly servedBy?: string;
    }
  /** Exactly this status. */
  | { readonly kind: 'status'; readonly status: number }
  /** Only the general rules (2xx, 4xx or 503 with Retry-After). */
  | { readonly kind: 'any' };

/** One generated request: where it goes, what it is, what must come back. */
export interface FuzzCase {
  /** Category, for the figures and failure messages. */
  readonly label: string;
  /** Index of the instance it is sent to. */
  readonly target: number;
  readonly request: RawRequest;
  readonly expect: FuzzExpectation;
}

/** What the generator knows of the cluster under test. */
export interface FuzzWorld {
  readonly users: readonly string[];
  readonly truth: ReadonlyMap<string, UserStats>;
  readonly windowsOf: ReadonlyMap<string, ReadonlyMap<number, number>>;
  readonly ownerOf: ReadonlyMap<string, string>;
  /** `host:port` of each instance, in target order. */
  readonly endpoints: readonly string[];
  /** A host:port nothing may ever connect to. */
  readonly sentinel: string;
  /** Longest key the application accepts (UTF-16 code units). */
  readonly maxKeyLength: number;
}

const ODD_KEYS = [
  '😀🚀👩‍👩‍👧', // emoji, ZWJ sequence
  'שלום‏עולם', // Hebrew with a right-to-left mark
  'مرحبا\u202Eabc', // Arabic with a right-to-left override
  'e\u0301\u0302\u0303\u0304', // combining marks
  'a\u0000b', // NUL
  '\u0001\u0002\u001f\u007f', // control characters
  '\r\nX-Injected: 1', // header injection attempt (percent-encoded on the wire)
  'a/b', // encoded slash
  '%2F', // a double-encoded slash once decoded
  '.',
  '..',
  '../../health/live',
  ' ',
  '\uFEFF', // byte order mark
  'user-001\u0000', // a known user plus NUL
  'USER-001',
  'user-001 ',
  '{"$gt":""}',
  "'; DROP TABLE stats; --",
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
];

const METHODS = ['GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE'];
const SEGMENTS = [
  'stats',
  'windowed',
  'streams',
  'metadata',
  'health',
  'live',
  'ready',
  'metrics',
  'range',
  'user-001',
  '',
  '.',
  '..',
  '%2e%2e',
  '%2F',
  '%252F',
  '%zz',
  '%',
  '%E0%A4%A',
  '%ED%A0%80',
  '%00',
  ';',
  '*',
  '~',
  'index.html',
];

/**
 * Generates fuzz requests for order-stats from a seeded PRNG: known users (exact answers even
 * with forged hop, Host and X-Forwarded-* headers, absolute-form targets naming the sentinel,
 * fully percent-encoded paths, long junk queries), unknown and odd keys (unicode, NUL and
 * control characters, encoded and double-encoded slashes, dot segments, over-long and 100 KB
 * keys), ranges with arbitrary bounds (exact, computed in UTF-8 byte order), repeated and
 * bracketed query parameters, invalid percent-encoding, wrong and unknown methods, and random
 * paths.
 */
export class HttpFuzzCaseGenerator {
  constructor(
    private readonly rng: HttpPrng,
    private readonly world: FuzzWorld,
  ) {}

  next(): FuzzCase {
    const roll = this.rng.next();
    if (roll < 0.25) return this.knownUser();
    if (roll < 0.35) return this.knownWindows();
    if (roll < 0.47) return this.oddKey();
    if (roll < 0.57) return this.range();
    if (roll < 0.65) return this.badQuery();
    if (roll < 0.7) return this.longKey();
    if (roll < 0.77) return this.operations();
    if (roll < 0.84) return this.wrongMethod();
    return this.randomPath();
  }

  private target(): number {
    return this.rng.int(0, this.world.endpoints.length - 1);
  }

  /** Hop, Host and forwarding headers a client may forge, none of which may change the answer. */
  private forgedHeaders(): Record<string, string> {
    const r = this.rng;
    const s = this.world.sentinel;
    const headers: Record<string, string> = {};
    if (r.chance(0.5)) {
      headers['x-streams-forwarded'] = r.pick([...this.world.endpoints, s, 'evil', '']);
    }
    if (r.chance(0.3)) headers['x-streams-standby-read'] = 'true';
    if (r.chance(0.3)) headers['x-streams-hop-token'] = r.pick(['0'.repeat(64), 'forged', '']);
    if (r.chance(0.3)) headers.host = r.pick([s, 'evil.example:80', '']);
    if (r.chance(0.3)) headers['x-forwarded-host'] = s;
    if (r.chance(0.2)) headers.forwarded = `for=1.2.3.4;host=${s};proto=http`;
    if (r.chance(0.2)) headers['x-forwarded-for'] = '1.2.3.4, 5.6.7.8';
    if (r.chance(0.2)) headers['x-forwarded-proto'] = 'https';
    return headers;
  }

  private knownUser(): FuzzCase {
    const user = this.rng.pick(this.world.users);
    const variant = this.rng.int(0, 3);
    const path =
      variant === 0
        ? `/stats/${user}`
        : variant === 1
          ? `/stats/${percentEncodeAll(user)}`
          : variant === 2
            ? `/stats/${user}?${junkQuery(this.rng, this.rng.int(10, 6000))}`
            : `http://${this.world.sentinel}/stats/${user}`;
    return {
      label: `known-user:${['plain', 'encoded', 'long-query', 'absolute-form'][variant]}`,
      target: this.target(),
      request: { method: 'GET', path, headers: this.forgedHeaders() },
      expect: {
        kind: 'exact',
        status: 200,
        body: this.world.truth.get(user),
        servedBy: this.world.ownerOf.get(user),
      },
    };
  }

  private knownWindows(): FuzzCase {
    const user = this.rng.pick(this.world.users);
    const windows = [...(this.world.windowsOf.get(user) ?? new Map<number, number>())]
      .sort(([a], [b]) => a - b)
      .map(([start, count]) => ({ start, end: start + 300_000, count }));
    const to = windows[windows.length - 1].start + this.rng.int(0, 10_000_000);
    return {
      label: 'known-windows',
      target: this.target(),
      request: {
        method: 'GET',
        path: `/windowed/${user}?from=0&to=${to}`,
        headers: this.forgedHeaders(),
      },
      expect: { kind: 'exact', status: 200, body: windows, servedBy: this.world.ownerOf.get(user) },
    };
  }

  private oddKeyValue(): string {
    const r = this.rng;
    if (r.chance(0.6)) return r.pick(ODD_KEYS);
    const length = r.int(1, 40);
    let key = '';
    for (let i = 0; i < length; i++) {
      const kind = r.int(0, 3);
      key +=
        kind === 0
          ? String.fromCharCode(r.int(0x20, 0x7e))
          : kind === 1
            ? String.fromCharCode(r.int(0, 0x1f))
            : kind === 2
              ? String.fromCodePoint(r.int(0x1f300, 0x1faff))
              : String.fromCharCode(r.int(0x0590, 0x06ff));
    }
    return key;
  }

  private oddKey(): FuzzCase {
    const key = this.oddKeyValue();
    const known = this.world.truth.has(key) || key === 'range';
    const windowed = this.rng.chance(0.4);
    const encoded = this.rng.chance(0.3) ? percentEncodeAll(key) : encodeURIComponent(key);
    const path = windowed ? `/windowed/${encoded}` : `/stats/${encoded}`;
    const expect: FuzzExpectation = known
      ? { kind: 'any' }
      : windowed
        ? { kind: 'exact', status: 200, body: [] }
        : { kind: 'status', status: 404 };
    return {
      label: windowed ? 'odd-key:windowed' : 'odd-key:stats',
      target: this.target(),
      request: { method: 'GET', path, headers: this.forgedHeaders() },
      expect,
    };
  }

  private range(): FuzzCase {
    const r = this.rng;
    const bound = (): string =>
      r.chance(0.6) ? r.pick(this.world.users) : r.chance(0.5) ? this.oddKeyValue() : '';
    const from = bound();
    const to = bound();
    const path = `/stats/range?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
    let expect: FuzzExpectation;
    if (from === '' || to === '') expect = { kind: 'status', status: 400 };
    else if (Buffer.compare(Buffer.from(from), Buffer.from(to)) > 0) {
      expect = { kind: 'status', status: 400 };
    } else {
      const body = [...this.world.users]
        .filter(
          (u) =>
            Buffer.compare(Buffer.from(from), Buffer.from(u)) <= 0 &&
            Buffer.compare(Buffer.from(u), Buffer.from(to)) <= 0,
        )
        .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
        .map((userId) => ({ userId, ...this.world.truth.get(userId)! }));
      expect = { kind: 'exact', status: 200, body };
    }
    return {
      label: 'range',
      target: this.target(),
      request: { method: 'GET', path, headers: this.forgedHeaders() },
      expect,
    };
  }

  private badQuery(): FuzzCase {
    const user = this.rng.pick(this.world.users);
    const cases: [string, string][] = [
      ['repeated-range', '/stats/range?from=user-000&from=user-005&to=user-009'],
      ['repeated-range', '/stats/range?from=user-000&to=user-005&to=user-009'],
      ['bracket-range', '/stats/range?from[]=user-000&to=user-009'],
      ['bracket-range', '/stats/range?from[a]=user-000&to[b]=user-009'],
      ['repeated-window', `/windowed/${user}?from=1&from=2`],
      ['repeated-window', `/windowed/${user}?to=1&to=2`],
      ['bad-window', `/windowed/${user}?from=abc`],
      ['bad-window', `/windowed/${user}?from=-1`],
      ['bad-window', `/windowed/${user}?from=1e3`],
      ['bad-window', `/windowed/${user}?to=${'9'.repeat(20)}`],
      ['bad-window', `/windowed/${user}?from=200&to=100`],
      ['bad-window', `/windowed/${user}?from=%zz`],
    ];
    const [label, path] = this.rng.pick(cases);
    return {
      label: `bad-query:${label}`,
      target: this.target(),
      request: { method: 'GET', path, headers: this.forgedHeaders() },
      expect: { kind: 'status', status: 400 },
    };
  }

  private longKey(): FuzzCase {
    const huge = this.rng.chance(0.3);
    const length = huge ? 100_000 : this.rng.int(this.world.maxKeyLength + 1, 8_000);
    const key = 'k'.repeat(length);
    const where = this.rng.int(0, 2);
    const path =
      where === 0
        ? `/stats/${key}`
        : where === 1
          ? `/windowed/${key}`
          : `/stats/range?from=${key}&to=${key}z`;
    return {
      label: huge ? 'huge-key' : 'long-key',
      target: this.target(),
      request: { method: 'GET', path, headers: {} },
      // Over 16 KiB, the HTTP parser refuses it (431); under it, the application does (400).
      expect: huge ? { kind: 'status', status: 431 } : { kind: 'status', status: 400 },
    };
  }

  private operations(): FuzzCase {
    const path = this.rng.pick(['/health/live', '/health/ready', '/streams/metadata', '/metrics']);
    const query = this.rng.chance(0.5) ? `?${junkQuery(this.rng, this.rng.int(1, 4000))}` : '';
    return {
      label: `operations:${path}`,
      target: this.target(),
      request: { method: 'GET', path: `${path}${query}`, headers: this.forgedHeaders() },
      expect: { kind: 'status', status: 200 },
    };
  }

  private wrongMethod(): FuzzCase {
    const r = this.rng;
    const path = r.pick([
      `/stats/${r.pick(this.world.users)}`,
      '/stats/range?from=a&to=b',
      `/windowed/${r.pick(this.world.users)}`,
      '/health/live',
      '/streams/metadata',
      '/metrics',
    ]);
    if (r.chance(0.15)) {
      // Not an HTTP method Node knows: the HTTP parser refuses it (400).
      return {
        label: 'unknown-method',
        target: this.target(),
        request: { method: r.pick(['FOO', 'GETT', 'BREW']), path, headers: {} },
        expect: { kind: 'status', status: 400 },
      };
    }
    const method = r.pick(['POST', 'PUT', 'DELETE', 'PATCH']);
    const body = r.chance(0.5) ? JSON.stringify({ userId: 'x', amount: 1 }) : undefined;
    const headers: Record<string, string> = { ...this.forgedHeaders() };
    if (body) headers['content-type'] = 'application/json';
    return {
      label: 'wrong-method',
      target: this.target(),
      request: { method, path, headers, body },
      expect: { kind: 'status', status: 404 },
    };
  }

  private randomPath(): FuzzCase {
    const r = this.rng;
    const parts = Array.from({ length: r.int(1, 5) }, () => r.pick(SEGMENTS));
    let path = `/${parts.join('/')}`;
    if (r.chance(0.3)) path += `?${junkQuery(r, r.int(1, 200))}`;
    const method = r.pick(METHODS);
    return {
      label: 'random-path',
      target: this.target(),
      request: { method, path, headers: this.forgedHeaders() },
      expect: { kind: 'any' },
    };
  }
}

/** Every character percent-encoded (UTF-8), `u` included: `%75%73...`. */
export function percentEncodeAll(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
}

/** A query string of about `length` characters: repeated names, arrays, odd encodings. */
function junkQuery(rng: HttpPrng, length: number): string {
  const pieces: string[] = [];
  let size = 0;
  while (size < length) {
    const piece = rng.pick([
      `x=${rng.int(0, 1e6)}`,
      'x=1&x=2',
      'a[]=1&a[]=2',
      'b[c]=d',
      '%zz=%zz',
      'from=user-000',
      'userId=user-001',
      `e=${encodeURIComponent('😀\u0000\u202E')}`,
      '=',
      '&&',
      '__proto__[x]=1',
    ]);
    pieces.push(piece);
    size += piece.length + 1;
  }
  return pieces.join('&');
}
