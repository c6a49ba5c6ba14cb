import { Inject } from '@nestjs/common';
import type { StateStoreKind } from './state-store.decorator';

const requested = new Map<string, { name: string; kind: StateStoreKind }>();

/** The injection token of the read-only facade of store `name` of `kind`. */
export function getStoreToken(name: string, kind: StateStoreKind = 'key-value'): string {
  return `nest-streams:store:${kind}:${name}`;
}

/** @internal Every store facade some `@InjectStore` asked for (read when the module is scanned). */
export function requestedStoreFacades(): { name: string; kind: StateStoreKind }[] {
  return [...requested.values()];
}

/**
 * Injects a typed read-only facade of this instance's copy of a store: a
 * `KeyValueStoreFacade<K, V>` (default, implements the engine's `ReadOnlyKeyValueStore`),
 * `WindowStoreFacade<K, V>` (`'window'`) or `SessionStoreFacade<K, V>` (`'session'`).
 *
 * @example
 * constructor(@InjectStore('stats-store') private readonly stats: KeyValueStoreFacade<string, Stats>) {}
 *
 * The facade throws the engine's typed errors: retriable ones (`StreamsNotStartedError`,
 * `StateStoreNotAvailableError`, `StateStoreMigratedError`) mean retry later (or rediscover
 * the owner); `UnknownStateStoreError` means the topology has no such store (fix the name).
 */
export function InjectStore(
  name: string,
  kind: StateStoreKind = 'key-value',
): PropertyDecorator & ParameterDecorator {
  requested.set(getStoreToken(name, kind), { name, kind });
  return Inject(getStoreToken(name, kind));
}
