import type { Topology } from '@nest-streams/streams';
import type { StoreInjection } from '../../decorators/inject-store.decorator';
import type { StateStoreKind } from '../../decorators/state-store.decorator';
import { StoreKindMismatchError } from '../../errors/store-kind-mismatch.error';
import { UndeclaredStateStoreError } from '../../errors/undeclared-state-store.error';
import type { StreamsDeclarations } from './streams.explorer';

/**
 * Checks every `@InjectStore` against the built topology: the store exists (a global store
 * too), and the kind the injection asked for (or the facade it got) is the store's kind.
 *
 * @throws UndeclaredStateStoreError for a store the topology does not have (fix the name);
 *   StoreKindMismatchError for a kind that is not the store's (drop it or make it match).
 */
export function checkStoreInjections(
  injections: ReadonlyMap<string, readonly StoreInjection[]>,
  facadeKinds: ReadonlyMap<string, StateStoreKind>,
  declarations: StreamsDeclarations,
  topology: Topology,
): void {
  const stores = topology.stores();
  for (const [name, uses] of injections) {
    const facade = facadeKinds.get(name);
    if (facade === undefined || uses.length === 0) continue; // not injected in this application
    // A global store (globalTable, addGlobalStore) is injected like any other: whole here.
    const store = stores.get(name) ?? topology.globalStores().get(name)?.builder;
    if (!store) {
      throw new UndeclaredStateStoreError(name, `@InjectStore in ${uses[0].site}`, [
        ...stores.keys(),
        ...topology.globalStores().keys(),
      ]);
    }
    const declared = declarations.stores.get(name);
    const actual: StateStoreKind = declared?.options.kind ?? store.changelogKind ?? 'key-value';
    const declaredBy = declared
      ? `@StateStore('${name}') on ${declared.declaredBy}`
      : 'the topology (a @Topology() method)';
    for (const use of uses) {
      const asked = use.kind ?? facade;
      if (asked !== actual) {
        throw new StoreKindMismatchError(name, use.site, asked, actual, declaredBy);
      }
    }
  }
}
