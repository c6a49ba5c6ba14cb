import type { FactoryProvider } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { KafkaStreams } from '@nest-streams/streams';
import {
  getStoreToken,
  storeInjections,
  type StoreInjection,
} from '../../decorators/inject-store.decorator';
import type { StateStoreKind } from '../../decorators/state-store.decorator';
import {
  StreamsMetadataAccessor,
  type DecoratedClass,
} from '../../discovery/internals/streams-metadata.accessor';
import { KafkaStreamsHost } from '../../client/internals/kafka-streams.host';
import { KeyValueStoreFacade } from '../key-value-store.facade';
import { SessionStoreFacade } from '../session-store.facade';
import { WindowStoreFacade } from '../window-store.facade';

/**
 * The providers of the store facades `@InjectStore` asked for, one per store. The facade's
 * kind is the store's `@StateStore` kind (read from the provider classes, which exist before
 * any instance), else the kind `@InjectStore` gave, else key-value; the module checks it against
 * the built topology at init (`checkStoreInjections`).
 */
export function storeFacadeProviders(): FactoryProvider[] {
  return [...storeInjections()].map(([name, uses]) => ({
    provide: getStoreToken(name),
    useFactory: (
      streams: KafkaStreams,
      host: KafkaStreamsHost,
      discovery: DiscoveryService,
      accessor: StreamsMetadataAccessor,
    ) => {
      const kind =
        declaredKind(name, discovery, accessor) ??
        requestedKind(applicationInjections(discovery, uses)) ??
        'key-value';
      host.recordFacade(name, kind);
      return kind === 'window'
        ? new WindowStoreFacade(name, streams)
        : kind === 'session'
          ? new SessionStoreFacade(name, streams)
          : new KeyValueStoreFacade(name, streams);
    },
    inject: [KafkaStreams, KafkaStreamsHost, DiscoveryService, StreamsMetadataAccessor],
  }));
}

function declaredKind(
  name: string,
  discovery: DiscoveryService,
  accessor: StreamsMetadataAccessor,
): StateStoreKind | undefined {
  for (const wrapper of discovery.getProviders()) {
    if (!wrapper.metatype || wrapper.inject) continue;
    const declaration = accessor
      .getStateStores(wrapper.metatype as DecoratedClass)
      .find((d) => d.name === name);
    if (declaration) return declaration.options.kind ?? 'key-value';
  }
  return undefined;
}

/** The injections made by classes of this application (its providers and controllers). */
export function applicationInjections(
  discovery: DiscoveryService,
  uses: readonly StoreInjection[],
): StoreInjection[] {
  const classes = new Set<unknown>();
  for (const wrapper of [...discovery.getProviders(), ...discovery.getControllers()]) {
    if (wrapper.metatype) classes.add(wrapper.metatype);
    const instance: unknown = wrapper.instance;
    if (instance && typeof instance === 'object') classes.add(instance.constructor);
  }
  return uses.filter((use) => classes.has(use.owner));
}

function requestedKind(uses: readonly StoreInjection[]): StateStoreKind | undefined {
  return uses.find((use) => use.kind !== undefined)?.kind;
}
