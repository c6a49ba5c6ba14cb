import { Inject, Injectable, Scope } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper';
import {
  SessionWindows,
  Stores,
  TimeWindows,
  type RocksDBConfigSetter,
} from '@nest-streams/streams';
import type { AggregationMetadata } from '../../decorators/aggregation.types';
import type { StateStoreOptions } from '../../decorators/state-store.decorator';
import { DuplicateStateStoreError } from '../../errors/duplicate-state-store.error';
import { InvalidStreamsDeclarationError } from '../../errors/invalid-streams-declaration.error';
import { RequestScopedStreamsProviderError } from '../../errors/request-scoped-streams-provider.error';
import { UndeclaredStateStoreError } from '../../errors/undeclared-state-store.error';
import {
  StreamsMetadataAccessor,
  type DecoratedClass,
  type DecoratedMethod,
} from './streams-metadata.accessor';

/** A `@StateStore` declaration with the provider that made it. */
export interface DeclaredStore {
  readonly name: string;
  readonly options: StateStoreOptions;
  /** The declaring provider's class name, for messages. */
  readonly declaredBy: string;
}

/** An aggregation decorator bound to its provider instance. */
export interface DeclaredAggregation {
  readonly kind: AggregationMetadata['kind'];
  readonly options: AggregationMetadata['options'];
  /** `Class.method`, for messages. */
  readonly declaredBy: string;
  /** Calls the decorated method on the provider instance. */
  readonly invoke: (...args: unknown[]) => unknown;
}

/** A `@Topology()` method bound to its provider instance. */
export interface DeclaredTopologyMethod {
  readonly declaredBy: string;
  readonly invoke: (...args: unknown[]) => unknown;
}

/** Everything the decorators declared, checked and bound: what the topology is built from. */
export interface StreamsDeclarations {
  readonly stores: ReadonlyMap<string, DeclaredStore>;
  readonly aggregations: readonly DeclaredAggregation[];
  readonly topologyMethods: readonly DeclaredTopologyMethod[];
  readonly rocksDBConfig?: { readonly declaredBy: string; readonly setter: RocksDBConfigSetter };
}

const STORE_KINDS = new Set(['key-value', 'window', 'session']);

/**
 * Finds the streams decorators on every provider (`DiscoveryService` + `MetadataScanner`),
 * checks them and binds the decorated methods to their instances. Runs once, at module init,
 * when every singleton exists.
 *
 * Errors (all thrown from {@link explore}, failing application start-up):
 * `RequestScopedStreamsProviderError`, `DuplicateStateStoreError`, `UndeclaredStateStoreError`,
 * `InvalidStreamsDeclarationError`; each message names the provider and what to change.
 */
@Injectable()
export class StreamsExplorer {
  constructor(
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(MetadataScanner) private readonly scanner: MetadataScanner,
    @Inject(StreamsMetadataAccessor) private readonly accessor: StreamsMetadataAccessor,
  ) {}

  explore(): StreamsDeclarations {
    const stores = new Map<string, DeclaredStore>();
    const aggregations: DeclaredAggregation[] = [];
    const topologyMethods: DeclaredTopologyMethod[] = [];
    const rocksDBConfigs: { declaredBy: string; setter: RocksDBConfigSetter }[] = [];
    const seen = new Set<DecoratedClass>();

    for (const wrapper of this.discovery.getProviders()) {
      const type = this.classOf(wrapper);
      if (!type || seen.has(type)) continue;
      const found = this.decoratorsOn(type);
      if (found.length === 0) continue;
      seen.add(type);
      this.requireSingleton(wrapper, type, found);
      const instance = (): Record<string, unknown> => wrapper.instance as Record<string, unknown>;

      for (const declaration of this.accessor.getStateStores(type)) {
        this.checkStore(declaration.name, declaration.options, type.name);
        const previous = stores.get(declaration.name);
        if (previous) {
          throw new DuplicateStateStoreError(declaration.name, [previous.declaredBy, type.name]);
        }
        stores.set(declaration.name, { ...declaration, declaredBy: type.name });
      }
      if (this.accessor.isRocksDBConfig(type)) {
        rocksDBConfigs.push({ declaredBy: type.name, setter: this.rocksDBSetter(type, instance) });
      }
      for (const methodName of this.scanner.getAllMethodNames(type.prototype)) {
        const method = (type.prototype as Record<string, unknown>)[methodName];
        if (typeof method !== 'function') continue;
        const declaredBy = `${type.name}.${methodName}`;
        const invoke = (...args: unknown[]): unknown => {
          const target = instance();
          return (target[methodName] as (...a: unknown[]) => unknown).apply(target, args);
        };
        const aggregation = this.accessor.getAggregation(method as DecoratedMethod);
        if (aggregation) {
          aggregations.push({
            kind: aggregation.kind,
            options: aggregation.options,
            declaredBy,
            invoke,
          });
        }
        if (this.accessor.isTopologyMethod(method as DecoratedMethod))
          topologyMethods.push({ declaredBy, invoke });
      }
    }

    if (rocksDBConfigs.length > 1) {
      throw new InvalidStreamsDeclarationError(
        `@RocksDBConfig() is on ${rocksDBConfigs.map((c) => c.declaredBy).join(' and ')}: one setter tunes every store, keep one (switch on the store name inside it)`,
      );
    }
    this.checkAggregations(aggregations, stores);
    return { stores, aggregations, topologyMethods, rocksDBConfig: rocksDBConfigs[0] };
  }

  /** The class whose decorators describe `wrapper`, when it has one. */
  private classOf(wrapper: InstanceWrapper): DecoratedClass | undefined {
    if (wrapper.metatype && !wrapper.inject) return wrapper.metatype as DecoratedClass;
    const instance: unknown = wrapper.instance;
    if (instance && typeof instance === 'object') return instance.constructor as DecoratedClass;
    return undefined;
  }

  private decoratorsOn(type: DecoratedClass): string[] {
    const found = new Set<string>();
    if (this.accessor.getStateStores(type).length > 0) found.add('@StateStore');
    if (this.accessor.isRocksDBConfig(type)) found.add('@RocksDBConfig');
    const prototype = type.prototype as Record<string, unknown> | undefined;
    if (!prototype) return [...found];
    for (const name of this.scanner.getAllMethodNames(prototype)) {
      const method = prototype[name];
      if (typeof method !== 'function') continue;
      const aggregation = this.accessor.getAggregation(method as DecoratedMethod);
      if (aggregation)
        found.add(`@${aggregation.kind[0].toUpperCase()}${aggregation.kind.slice(1)}`);
      if (this.accessor.isTopologyMethod(method as DecoratedMethod)) found.add('@Topology');
    }
    return [...found];
  }

  private requireSingleton(wrapper: InstanceWrapper, type: DecoratedClass, found: string[]): void {
    if (wrapper.scope === Scope.REQUEST) {
      throw new RequestScopedStreamsProviderError(type.name, found, 'request-scoped');
    }
    if (wrapper.isTransient) {
      throw new RequestScopedStreamsProviderError(type.name, found, 'transient');
    }
    if (!wrapper.isDependencyTreeStatic()) {
      throw new RequestScopedStreamsProviderError(
        type.name,
        found,
        'implicitly request-scoped (it depends on a request-scoped provider)',
      );
    }
  }

  private checkStore(name: string, options: StateStoreOptions, declaredBy: string): void {
    const where = `@StateStore('${name}') on ${declaredBy}`;
    try {
      // The engine's store factories check the name (it names a directory and a topic).
      Stores.inMemoryKeyValueStore(name);
    } catch (error) {
      throw new InvalidStreamsDeclarationError(`${where}: ${(error as Error).message}`);
    }
    if (options.kind !== undefined && !STORE_KINDS.has(options.kind)) {
      throw new InvalidStreamsDeclarationError(
        `${where}: kind must be 'key-value', 'window' or 'session', got '${String(options.kind)}'`,
      );
    }
    const { engine } = options;
    if (typeof engine === 'object' && engine !== null) {
      if ((options.kind ?? 'key-value') !== 'key-value') {
        throw new InvalidStreamsDeclarationError(
          `${where}: an engine supplier is for key-value stores; a ${options.kind} store takes 'rocksdb' or 'in-memory'`,
        );
      }
      if (engine.name !== name) {
        throw new InvalidStreamsDeclarationError(
          `${where}: the engine supplier is named '${engine.name}': give it the store's name`,
        );
      }
    } else if (engine !== undefined && engine !== 'rocksdb' && engine !== 'in-memory') {
      throw new InvalidStreamsDeclarationError(
        `${where}: engine must be 'rocksdb', 'in-memory' or a key-value store supplier, got '${String(engine)}'`,
      );
    }
    for (const key of ['retentionMs', 'windowSizeMs'] as const) {
      const value = options[key];
      if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
        throw new InvalidStreamsDeclarationError(
          `${where}: ${key} must be a non-negative integer of milliseconds, got ${String(value)}`,
        );
      }
    }
  }

  private checkAggregations(
    aggregations: readonly DeclaredAggregation[],
    stores: ReadonlyMap<string, DeclaredStore>,
  ): void {
    const filledBy = new Map<string, string>();
    for (const aggregation of aggregations) {
      const { options, declaredBy } = aggregation;
      const decorator = `@${aggregation.kind[0].toUpperCase()}${aggregation.kind.slice(1)} on ${declaredBy}`;
      if (typeof options?.source !== 'string' || options.source.length === 0) {
        throw new InvalidStreamsDeclarationError(`${decorator}: 'source' must name a topic`);
      }
      const store = stores.get(options.store);
      if (!store) {
        throw new UndeclaredStateStoreError(String(options.store), decorator, [...stores.keys()]);
      }
      const previous = filledBy.get(options.store);
      if (previous) {
        throw new InvalidStreamsDeclarationError(
          `store '${options.store}' is filled by both ${previous} and ${declaredBy}: each aggregation needs its own store`,
        );
      }
      filledBy.set(options.store, declaredBy);
      const kind = store.options.kind ?? 'key-value';
      const expected =
        options.windows instanceof TimeWindows
          ? 'window'
          : options.windows instanceof SessionWindows
            ? 'session'
            : options.windows === undefined
              ? 'key-value'
              : undefined;
      if (expected === undefined) {
        throw new InvalidStreamsDeclarationError(
          `${decorator}: 'windows' must be TimeWindows or SessionWindows`,
        );
      }
      if (kind !== expected) {
        throw new InvalidStreamsDeclarationError(
          `${decorator} ${options.windows ? `aggregates per ${expected === 'window' ? 'time window' : 'session'}` : 'aggregates per key'}, so store '${options.store}' must be declared with kind '${expected}' (it is '${kind}')`,
        );
      }
      if (aggregation.kind === 'aggregate' && typeof options.initializer !== 'function') {
        throw new InvalidStreamsDeclarationError(`${decorator}: 'initializer' must be a function`);
      }
      if (
        aggregation.kind === 'aggregate' &&
        expected === 'session' &&
        typeof options.merger !== 'function'
      ) {
        throw new InvalidStreamsDeclarationError(
          `${decorator}: session aggregations need a 'merger' to combine merging sessions`,
        );
      }
    }
  }

  private rocksDBSetter(
    type: DecoratedClass,
    instance: () => Record<string, unknown>,
  ): RocksDBConfigSetter {
    const prototype = type.prototype as Partial<RocksDBConfigSetter>;
    if (typeof prototype.setConfig !== 'function') {
      throw new InvalidStreamsDeclarationError(
        `@RocksDBConfig() on ${type.name}: the class must implement RocksDBConfigSetter (a setConfig(storeName, options, configs) method)`,
      );
    }
    const target = (): RocksDBConfigSetter => instance() as unknown as RocksDBConfigSetter;
    return {
      setConfig: (storeName, options, configs) => target().setConfig(storeName, options, configs),
      close: (storeName, options) => target().close?.(storeName, options),
    };
  }
}
