// The module's constants in one place: the HTTP headers its answers carry (public), its
// injection tokens, the decorators' metadata keys, and the hop headers and message pattern
// its instances use between themselves.

// HTTP headers of routed answers: what a client of a streams application reads.
/** On every answer: the instance (`host:port`) whose store answered. */
export const SERVED_BY_HEADER = 'X-Served-By';
/** On an answer from a standby copy: `true`. */
export const STALE_HEADER = 'X-Stale';
/** On an answer from a standby copy: how many changelog records it is behind, when known. */
export const LAG_HEADER = 'X-Lag';
/** On a 503: seconds to wait before retrying. */
export const RETRY_AFTER_HEADER = 'Retry-After';

// Injection tokens.
// `KAFKA_STREAMS_FACTORY`, of a `KafkaStreamsFactory`: the engine's (`@nest-streams/streams`),
// so that `@nest-streams/testing` provides it without importing this package.
export { KAFKA_STREAMS_FACTORY } from '@nest-streams/streams';
/** Injection token of the `StreamsModuleOptions` given to `forRoot` / `forRootAsync`. */
export const STREAMS_MODULE_OPTIONS = Symbol('STREAMS_MODULE_OPTIONS');
/**
 * Injection token of what the instance-to-instance query server answers report requests with
 * (an `InstanceReportSource`: the cluster page's `InstanceReporter`), so the query transport
 * needs no import of the page.
 */
export const INSTANCE_REPORT_SOURCE = Symbol('INSTANCE_REPORT_SOURCE');

// Metadata keys of the decorators.
/** Metadata key of `@StateStore` declarations on a provider class. */
export const STATE_STORE_METADATA = 'nest-streams:state-store';
/** Metadata key of `@Aggregate`, `@Count` and `@Reduce` on provider methods. */
export const STREAM_AGGREGATION_METADATA = 'nest-streams:aggregation';
/** Metadata key of `@Topology()` on provider methods. */
export const TOPOLOGY_METHOD_METADATA = 'nest-streams:topology';
/** Metadata key of `@RocksDBConfig()` on a provider class. */
export const ROCKSDB_CONFIG_METADATA = 'nest-streams:rocksdb-config';
/** Metadata key of `@RouteByKey()` on HTTP handlers. */
export const ROUTE_BY_KEY_METADATA = 'nest-streams:route-by-key';

// Between the instances of an application.
/** Hop header: set on a forwarded request, naming the instance (`host:port`) that forwarded it. */
export const FORWARDED_HEADER = 'x-streams-forwarded';
/**
 * On a forwarded request: `<target> <timestamp> <nonce> <mac>`, the target instance's
 * `application.server`, the epoch ms it was signed at, a one-time nonce and an HMAC-SHA256
 * (base64url, keyed with the cluster's `security.clusterSecret`) over the target, the
 * forwarding instance, both of those and the request line (owner or standby read, method,
 * path). A hop whose token is not valid, fresh, unused and for this instance gets no hop
 * privilege.
 */
export const HOP_TOKEN_HEADER = 'x-streams-hop-token';
/** Set on a request forwarded to a standby: the receiver may answer from its standby copy. */
export const STANDBY_READ_HEADER = 'x-streams-standby-read';
/** Message pattern of instance-to-instance queries (suffixed with the target endpoint). */
export const QUERY_MESSAGE_PATTERN = 'nest-streams.query';
/** Message pattern a hop token is sealed for (suffixed with the target's `application.server`). */
export const HOP_MESSAGE_PATTERN = 'nest-streams.hop';
