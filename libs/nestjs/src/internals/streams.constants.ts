// Metadata keys, hop headers and tokens the module uses between its own parts.
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
/** Hop header: set on a forwarded request, naming the instance (`host:port`) that forwarded it. */
export const FORWARDED_HEADER = 'x-streams-forwarded';
/**
 * On a forwarded request: HMAC-SHA256 (hex) of the hop (forwarding instance, standby flag,
 * method, path), keyed with the cluster's `security.clusterSecret`. Hop headers without a valid token
 * are ignored.
 */
export const HOP_TOKEN_HEADER = 'x-streams-hop-token';
/** Set on a request forwarded to a standby: the receiver may answer from its standby copy. */
export const STANDBY_READ_HEADER = 'x-streams-standby-read';
/** Message pattern of instance-to-instance queries (suffixed with the target endpoint). */
export const QUERY_MESSAGE_PATTERN = 'nest-streams.query';
/** Injection token of the `StreamsModuleOptions` given to `forRoot` / `forRootAsync`. */
export const STREAMS_MODULE_OPTIONS = Symbol('STREAMS_MODULE_OPTIONS');
