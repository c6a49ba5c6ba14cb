import { Inject, Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AggregationMetadata } from '../../decorators/aggregation.types';
import type { RouteByKeyMetadata } from '../../decorators/route-by-key.decorator';
import type { StateStoreDeclaration } from '../../decorators/state-store.decorator';
import {
  ROCKSDB_CONFIG_METADATA,
  ROUTE_BY_KEY_METADATA,
  STATE_STORE_METADATA,
  STREAM_AGGREGATION_METADATA,
  TOPOLOGY_METHOD_METADATA,
} from '../../streams.constants';

/** A class, as decorators see it. */
export type DecoratedClass = abstract new (...args: never[]) => unknown;
/** A method, as decorators see it. */
export type DecoratedMethod = (...args: never[]) => unknown;

/** Reads what the streams decorators stored; the only place that knows their metadata keys. */
@Injectable()
export class StreamsMetadataAccessor {
  constructor(@Inject(Reflector) private readonly reflector: Reflector) {}

  /** `@StateStore` declarations of a provider class, in source order. */
  getStateStores(target: DecoratedClass): StateStoreDeclaration[] {
    return (
      (Reflect.getOwnMetadata(STATE_STORE_METADATA, target) as
        StateStoreDeclaration[] | undefined) ?? []
    );
  }

  /** The aggregation decorator (`@Aggregate`, `@Count`, `@Reduce`) of a method, if any. */
  getAggregation(method: DecoratedMethod): AggregationMetadata | undefined {
    return this.reflector.get<AggregationMetadata | undefined>(STREAM_AGGREGATION_METADATA, method);
  }

  /** Whether a method carries `@Topology()`. */
  isTopologyMethod(method: DecoratedMethod): boolean {
    return this.reflector.get<boolean | undefined>(TOPOLOGY_METHOD_METADATA, method) === true;
  }

  /** Whether a provider class carries `@RocksDBConfig()`. */
  isRocksDBConfig(target: DecoratedClass): boolean {
    return this.reflector.get<boolean | undefined>(ROCKSDB_CONFIG_METADATA, target) === true;
  }

  /** `@RouteByKey` of an HTTP handler, if any. */
  getRouteByKey(
    handler: ReturnType<ExecutionContext['getHandler']>,
  ): RouteByKeyMetadata | undefined {
    return this.reflector.get<RouteByKeyMetadata | undefined>(ROUTE_BY_KEY_METADATA, handler);
  }
}
