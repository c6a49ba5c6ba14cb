/** Node's codes for a peer certificate that does not verify (untrusted, expired, wrong host). */
const CERTIFICATE_ERRORS = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** What a client's error may carry on its way to the engine. */
export interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  originalError?: unknown;
}

/** The first error of `error`'s cause chain that `match` accepts (at most 8 links deep). */
export function inCauseChain(
  error: unknown,
  match: (e: ErrorLike) => boolean,
): ErrorLike | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const e = current as ErrorLike;
    if (match(e)) return e;
    current = e.cause ?? e.originalError;
  }
  return undefined;
}

/**
 * The error of `error`'s cause chain that says a broker's certificate did not verify (its
 * Node code among the certificate codes), or undefined: such a failure is no transient fault
 * and no unreachable cluster, but a trust to fix (`kafka.ssl.ca`, the certificate's names).
 */
export function certificateFailure(error: unknown): ErrorLike | undefined {
  return inCauseChain(error, (e) => typeof e.code === 'string' && CERTIFICATE_ERRORS.has(e.code));
}

/** Whether `error` (or its cause) is a broker certificate this client does not trust. */
export function isCertificateFailure(error: unknown): boolean {
  return certificateFailure(error) !== undefined;
}
