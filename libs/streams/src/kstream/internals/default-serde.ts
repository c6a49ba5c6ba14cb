import type { ProcessorSupplier } from '../../processor/processor';
import type { Serde } from '../../serde/serde';
import { TopologyError } from '../../errors/topology.error';

/**
 * Stands for the application's `default.key.serde` / `default.value.serde` in a store the DSL
 * builds when neither the operation nor its `Materialized` names a serde. The store is built
 * when the topology is, before the configuration is known, so the real serde is bound when
 * the first processor using the store initializes (it reads `context.appConfigs`).
 */
export class DefaultSerde<T> implements Serde<T> {
  private delegate: Serde<T> | undefined;

  constructor(
    private readonly kind: 'key' | 'value',
    private readonly storeName: string,
  ) {}

  /** Binds the configured default serde (once; later calls keep the first). */
  resolve(appConfigs: { readonly [name: string]: unknown }): void {
    if (this.delegate !== undefined) return;
    const configured = appConfigs[this.kind === 'key' ? 'defaultKeySerde' : 'defaultValueSerde'];
    if (isSerde<T>(configured)) this.delegate = configured;
  }

  /**
   * @throws TopologyError before a default serde was bound: give the operation's
   *   `Materialized` (or `Grouped`/`Consumed`) a serde, or set the default serdes.
   */
  serialize(value: T, topic?: string): Buffer {
    return this.require().serialize(value, topic);
  }

  /** @throws TopologyError as {@link DefaultSerde.serialize}. */
  deserialize(bytes: Buffer, topic?: string): T {
    return this.require().deserialize(bytes, topic);
  }

  private require(): Serde<T> {
    if (this.delegate === undefined) {
      throw new TopologyError(
        `store '${this.storeName}' has no ${this.kind} serde: set one with Materialized.with${this.kind === 'key' ? 'Key' : 'Value'}Serde (or on Grouped/Consumed), or configure default.${this.kind}.serde`,
      );
    }
    return this.delegate;
  }
}

function isSerde<T>(value: unknown): value is Serde<T> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Serde<T>).serialize === 'function' &&
    typeof (value as Serde<T>).deserialize === 'function'
  );
}

/** `serde`, or a {@link DefaultSerde} placeholder collected into `pending`. */
export function serdeOrDefault<T>(
  serde: Serde<T> | undefined,
  kind: 'key' | 'value',
  storeName: string,
  pending: DefaultSerde<unknown>[],
): Serde<T> {
  if (serde !== undefined) return serde;
  const placeholder = new DefaultSerde<T>(kind, storeName);
  pending.push(placeholder as DefaultSerde<unknown>);
  return placeholder;
}

/**
 * Wraps `supplier` so that each processor it makes binds `serdes` to the configured
 * defaults before its own `init` runs.
 */
export function bindingDefaultSerdes<KIn, VIn, KOut, VOut>(
  supplier: ProcessorSupplier<KIn, VIn, KOut, VOut>,
  serdes: readonly DefaultSerde<unknown>[],
): ProcessorSupplier<KIn, VIn, KOut, VOut> {
  if (serdes.length === 0) return supplier;
  return () => {
    const processor = supplier();
    const init = processor.init?.bind(processor);
    processor.init = (context) => {
      for (const serde of serdes) serde.resolve(context.appConfigs);
      init?.(context);
    };
    return processor;
  };
}
