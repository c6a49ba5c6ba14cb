import { Injectable } from '@nestjs/common';
import { KafkaStreams, StreamsNotStartedError } from '@nest-streams/streams';
import type { StateStoreKind } from '../../decorators/state-store.decorator';
import type { StreamsDeclarations } from '../../discovery/internals/streams.explorer';

const NOT_CREATED =
  'KafkaStreams is created when the application initializes (StreamsModule builds the topology once every provider exists): use it from onModuleInit or later';

/**
 * Holds the application's `KafkaStreams`. The module creates it at module init, once every
 * provider exists (so `@Topology()` methods can use their injected dependencies); what is
 * injected as `KafkaStreams` is {@link proxy}, which forwards to it.
 */
@Injectable()
export class KafkaStreamsHost {
  private current: KafkaStreams | undefined;
  private currentDeclarations: StreamsDeclarations | undefined;
  private proxyValue: KafkaStreams | undefined;
  private readonly facades = new Map<string, StateStoreKind>();

  /**
   * The client.
   *
   * @throws StreamsNotStartedError before module init (retriable: use it later).
   */
  get streams(): KafkaStreams {
    if (!this.current) throw new StreamsNotStartedError(NOT_CREATED);
    return this.current;
  }

  /** What the decorators declared (available with the client). */
  get declarations(): StreamsDeclarations {
    if (!this.currentDeclarations) throw new StreamsNotStartedError(NOT_CREATED);
    return this.currentDeclarations;
  }

  get created(): boolean {
    return this.current !== undefined;
  }

  /** The kind of each store facade `@InjectStore` got in this application. */
  get facadeKinds(): ReadonlyMap<string, StateStoreKind> {
    return this.facades;
  }

  /** @internal Called by the store facade providers. */
  recordFacade(name: string, kind: StateStoreKind): void {
    this.facades.set(name, kind);
  }

  /** @internal Called once by the runtime. */
  set(streams: KafkaStreams, declarations: StreamsDeclarations): void {
    this.current = streams;
    this.currentDeclarations = declarations;
  }

  /**
   * The injectable stand-in: an object that is `instanceof KafkaStreams` and forwards every
   * property to the client once it exists. Before that, calling a method throws
   * `StreamsNotStartedError`.
   */
  proxy(): KafkaStreams {
    if (this.proxyValue) return this.proxyValue;
    const target = Object.create(KafkaStreams.prototype) as KafkaStreams;
    this.proxyValue = new Proxy(target, {
      get: (stub, property) => {
        const real = this.current;
        if (real) {
          const value: unknown = Reflect.get(real, property, real);
          return typeof value === 'function' ? value.bind(real) : value;
        }
        if (property === 'constructor') return KafkaStreams;
        const descriptor = findDescriptor(KafkaStreams.prototype, property);
        if (typeof descriptor?.value === 'function') {
          return () => {
            throw new StreamsNotStartedError(NOT_CREATED);
          };
        }
        if (descriptor?.get) throw new StreamsNotStartedError(NOT_CREATED);
        return Reflect.get(stub, property);
      },
      has: (_stub, property) => property in (this.current ?? KafkaStreams.prototype),
    });
    return this.proxyValue;
  }
}

function findDescriptor(
  prototype: object,
  property: string | symbol,
): PropertyDescriptor | undefined {
  for (
    let p: object | null = prototype;
    p && p !== Object.prototype;
    p = Object.getPrototypeOf(p)
  ) {
    const descriptor = Object.getOwnPropertyDescriptor(p, property);
    if (descriptor) return descriptor;
  }
  return undefined;
}
