import { StreamsError } from '@nest-streams/streams';

/**
 * An aggregation decorator (`@Aggregate`, `@Count`, `@Reduce`) or a `TopologyContext` call
 * names a store no `@StateStore` declares. Thrown at start-up. What to do: declare the store
 * with `@StateStore(name, options)` on a provider, or fix the name; never retriable.
 */
export class UndeclaredStateStoreError extends StreamsError.coded('UNDECLARED_STATE_STORE', false) {
  constructor(
    readonly storeName: string,
    readonly usedBy: string,
    readonly declared: readonly string[],
  ) {
    super(
      `${usedBy} names state store '${storeName}', which no @StateStore declares (declared: ${
        declared.length > 0 ? declared.map((d) => `'${d}'`).join(', ') : 'none'
      }): add @StateStore('${storeName}', ...) to a provider`,
    );
  }
}
