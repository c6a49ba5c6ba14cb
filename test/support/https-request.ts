import { request } from 'node:https';

/** The TLS material of an HTTPS caller: the CA it trusts, and a client certificate if any. */
export interface HttpsCaller {
  readonly ca: string;
  readonly cert?: string;
  readonly key?: string;
}

/** An HTTPS answer: status, headers (lower-case names), and the body parsed when it is JSON. */
export interface HttpsAnswer<T = unknown> {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: T;
}

/**
 * `GET url` over HTTPS, trusting only `caller.ca` (Node's fetch cannot be given a CA), with
 * `headers`; 10 s at most. Rejects on a TLS or connection error.
 */
export function httpsGet<T = unknown>(
  url: string,
  caller: HttpsCaller,
  headers: Readonly<Record<string, string>> = {},
): Promise<HttpsAnswer<T>> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'GET', headers, ca: caller.ca, cert: caller.cert, key: caller.key, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body as T });
        });
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer from ${url} within 10 s`)));
    req.on('error', reject);
    req.end();
  });
}
