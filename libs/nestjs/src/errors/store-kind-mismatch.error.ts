import { StreamsError } from '@nest-streams/streams';

/**
 * `@InjectStore(name, kind)` asks for another kind of store than the one declared under that
 * name (`@StateStore(name, { kind })`, or what a `@Topology()` method materialized). Thrown at
 * start-up. What to do: drop `kind` from `@InjectStore` (it is inferred) or make it match;
 * never retriable.
 */
export class StoreKindMismatchError extends StreamsError {
  readonly code = 'STORE_KIND_MISMATCH';
  readonly retriable = false;

  constructor(
    readonly storeName: string,
    readonly injectedAt: string,
    readonly requested: string,
    readonly declared: string,
    readonly declaredBy: string,
  ) {
    super(
      `@InjectStore('${storeName}', '${requested}') in ${injectedAt} asks for a ${requested} store, but ${declaredBy} declares '${storeName}' as a ${declared} store: drop the kind (it is inferred) or make it '${declared}'`,
    );
  }
}
