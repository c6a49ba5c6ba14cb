import { Inject } from '@nestjs/common';
import type { StateStoreKind } from './state-store.decorator';

/** One `@InjectStore` use: the store, the kind it asked for (if any) and where it is. */
export interface StoreInjection {
  readonly name: string;
  /** The kind given to `@InjectStore`, when one was. */
  readonly kind?: StateStoreKind;
  /** `Class constructor parameter N` or `Class.property`, for messages. */
  readonly site: string;
  /** The class the decorator is on (an application uses only its own classes' injections). */
  readonly owner: object;
}

const injections = new Map<string, StoreInjection[]>();

/** The injection token of the read-only facade of store `name` (one per store, any kind). */
export function getStoreToken(name: string): string {
  return `nest-streams:store:${name}`;
}

/** @internal Every `@InjectStore` use, per store name (read when the module is scanned). */
export function storeInjections(): ReadonlyMap<string, readonly StoreInjection[]> {
  return injections;
}

/**
 * Injects a typed read-only facade of this instance's copy of a store. Its kind comes from the
 * store's declaration (`@StateStore(name, { kind })`, or the store a `@Topology()` method
 * materialized): a `KeyValueStoreFacade<K, V>` (implements the engine's
 * `ReadOnlyKeyValueStore`), `WindowStoreFacade<K, V>` or `SessionStoreFacade<K, V>`. Giving
 * `kind` is optional; it must then match the declaration.
 *
 * @example
 * constructor(@InjectStore('stats-store') private readonly stats: KeyValueStoreFacade<string, Stats>) {}
 *
 * Errors: at start-up, `StoreKindMismatchError` when `kind` differs from the declared kind
 * (drop `kind` or fix it) and `UndeclaredStateStoreError` when the topology has no such store
 * (fix the name). At use, the facade throws the engine's typed errors: retriable ones
 * (`StreamsNotStartedError`, `StateStoreNotAvailableError`, `StateStoreMigratedError`) mean
 * retry later (or rediscover the owner).
 */
export function InjectStore(
  name: string,
  kind?: StateStoreKind,
): PropertyDecorator & ParameterDecorator {
  const inject = Inject(getStoreToken(name));
  return (target: object, key: string | symbol | undefined, index?: number) => {
    const list = injections.get(name) ?? [];
    const owner = typeof target === 'function' ? target : target.constructor;
    const site = siteOf(target, key, index);
    if (!list.some((i) => i.owner === owner && i.site === site)) {
      list.push({ name, kind, site, owner });
    }
    injections.set(name, list);
    if (index === undefined) (inject as PropertyDecorator)(target, key as string | symbol);
    else (inject as ParameterDecorator)(target, key, index);
  };
}

function siteOf(target: object, key: string | symbol | undefined, index?: number): string {
  const owner = typeof target === 'function' ? target.name : target.constructor.name;
  if (index === undefined) return `${owner}.${String(key)}`;
  return key === undefined
    ? `${owner} constructor parameter ${index}`
    : `${owner}.${String(key)} parameter ${index}`;
}
