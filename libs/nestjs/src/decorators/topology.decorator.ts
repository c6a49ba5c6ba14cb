import { SetMetadata } from '@nestjs/common';
import { TOPOLOGY_METHOD_METADATA } from '../streams.constants';

/**
 * Marks a provider method that adds to the topology with the DSL, for anything the
 * aggregation decorators do not cover. It is called once, while the module builds the
 * topology (before start), as `method(builder, context)`: `builder` is the `StreamsBuilder`,
 * `context` a `TopologyContext` (shared source streams, declared stores).
 *
 * @example
 * @Topology()
 * enrich(builder: StreamsBuilder, context: TopologyContext): void {
 *   context.stream<string, Order>('orders').filter((k, v) => v.amount > 0).to('valid-orders');
 * }
 *
 * Errors at start-up: whatever the method throws, typically the engine's `TopologyError`
 * (a topic read twice: use `context.stream(topic)`; a taken store name: declare the store with
 * `@StateStore` and use `context.materialized(name)`).
 */
export function Topology(): MethodDecorator {
  return SetMetadata(TOPOLOGY_METHOD_METADATA, true);
}
