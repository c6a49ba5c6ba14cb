import { RocksDBConfigError } from '../../../errors/rocksdb-config.error';
import type { RocksDBOptionValues } from '../../rocksdb-options';

const UINT32_MAX = 0xffff_ffff;

/**
 * Collects the RocksDB option values an engine cannot apply, so that `open()` can reject them
 * all in one {@link RocksDBConfigError} instead of ignoring them.
 */
export class RocksDBOptionChecks {
  private readonly problems: string[] = [];

  constructor(
    private readonly options: Readonly<RocksDBOptionValues>,
    private readonly engine: string,
  ) {}

  /** The option must keep the one value the binding supports. */
  fixed<K extends keyof RocksDBOptionValues>(
    key: K,
    value: RocksDBOptionValues[K],
    why: string,
  ): this {
    if (this.options[key] !== value) {
      this.problems.push(`${key}=${String(this.options[key])} (only ${String(value)}: ${why})`);
    }
    return this;
  }

  /** The option must be one of `allowed`. */
  oneOf<K extends keyof RocksDBOptionValues>(
    key: K,
    allowed: readonly RocksDBOptionValues[K][],
    why: string,
  ): this {
    if (!allowed.includes(this.options[key])) {
      this.problems.push(
        `${key}=${String(this.options[key])} (supported: ${allowed.join(', ')}; ${why})`,
      );
    }
    return this;
  }

  /** The option must be an integer in `[min, max]` (`max` defaults to the uint32 maximum). */
  integer(key: keyof RocksDBOptionValues, min: number, max = UINT32_MAX): this {
    const value = this.options[key];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${key}=${String(value)} (an integer in [${min}, ${max}] is required)`);
    }
    return this;
  }

  /** The option must be `true` or `false`. */
  boolean(key: keyof RocksDBOptionValues): this {
    const value = this.options[key];
    if (typeof value !== 'boolean') {
      this.problems.push(`${key}=${String(value)} (true or false is required)`);
    }
    return this;
  }

  /** Adds a problem when `failed` holds. */
  require(failed: boolean, problem: string): this {
    if (failed) {
      this.problems.push(problem);
    }
    return this;
  }

  /** Throws a {@link RocksDBConfigError} naming every problem found, if any. */
  throwIfAny(storeName: string): void {
    if (this.problems.length > 0) {
      throw new RocksDBConfigError(storeName, this.engine, this.problems);
    }
  }
}
