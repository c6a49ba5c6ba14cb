// HTTP headers of routed answers: what a client of a streams application reads.
/** On every answer: the instance (`host:port`) whose store answered. */
export const SERVED_BY_HEADER = 'X-Served-By';
/** On an answer from a standby copy: `true`. */
export const STALE_HEADER = 'X-Stale';
/** On an answer from a standby copy: how many changelog records it is behind, when known. */
export const LAG_HEADER = 'X-Lag';
/** On a 503: seconds to wait before retrying. */
export const RETRY_AFTER_HEADER = 'Retry-After';
