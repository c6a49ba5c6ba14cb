import { Inject, Injectable } from '@nestjs/common';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import { InteractiveQueryService } from '../../queries/interactive-query.service';
import { failureOf } from '../../queries/internals/query-failure.mapping';
import { KeyOwnerLocator } from '../../ownership/internals/key-owner.locator';

/** What one copy of a key's partition answers. */
export interface CopyAnswer {
  /** The instance holding the copy. */
  readonly host: string;
  /** What the metadata says the copy is. */
  readonly role: 'active' | 'standby';
  /** The answer, when the copy answered. */
  readonly answer?: {
    /** The value as JSON text; absent when the copy has no value for the key. */
    readonly value?: string;
    readonly found: boolean;
    /** A standby copy answered: the value (or its absence) is `lag` records old. */
    readonly stale: boolean;
    readonly lag: number;
    /** The instance whose copy answered. */
    readonly servedBy: string;
  };
  /** Why the copy did not answer. */
  readonly error?: { readonly code: string; readonly retriable: boolean; readonly message: string };
}

/** A key of a store across its copies. */
export interface KeyInspection {
  readonly store: string;
  readonly key: string;
  /**
   * The key's partition; null when no instance is its confirmed owner (rebalancing), and for
   * a global store (whole on every instance: no partition).
   */
  readonly partition: number | null;
  readonly activeHost: string | null;
  readonly standbyHosts: readonly string[];
  readonly copies: readonly CopyAnswer[];
}

/**
 * The cluster page's key look-up: where a key lives (`queryMetadataForKey`: partition, active
 * and standby hosts) and what each copy answers, read with `InteractiveQueryService.lookup`
 * (which reports the copy that answered: a standby's answer is stale by its lag). Keys are
 * given as text: stores whose key serde does not take a string answer `SERIALIZATION_ERROR`.
 *
 * Errors: `UnknownStateStoreError` for a store the topology lacks, `SerializationError` for a
 * key the store's serde refuses (both: fix the input). A copy's own failure is in its answer.
 */
@Injectable()
export class KeyInspector {
  constructor(
    @Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings,
    @Inject(KeyOwnerLocator) private readonly locator: KeyOwnerLocator,
    @Inject(InteractiveQueryService) private readonly queries: InteractiveQueryService,
  ) {}

  async inspect(store: string, key: string): Promise<KeyInspection> {
    const { metadata, self } = this.locator.locate(store, key);
    if (self === undefined) {
      // A single instance without application.server: its own copy is the only one.
      const copy = await this.read(store, key, this.settings.servedBy, 'active', undefined);
      const partition = copy.answer && metadata.partition >= 0 ? metadata.partition : null;
      return {
        store,
        key,
        partition,
        activeHost: this.settings.servedBy,
        standbyHosts: [],
        copies: [copy],
      };
    }
    if (!metadata.available) {
      return { store, key, partition: null, activeHost: null, standbyHosts: [], copies: [] };
    }
    const active = metadata.activeHost.toString();
    const standbys = metadata.standbyHosts.map((h) => h.toString());
    if (metadata.standbyHosts.some((h) => h.equals(self))) {
      // Fresh changelog ends, so the lag of this instance's standby copy is current.
      await this.locator.refreshLags();
    }
    const copies = await Promise.all([
      this.read(store, key, active, 'active', active),
      ...standbys.map((host) => this.read(store, key, host, 'standby', host)),
    ]);
    return {
      store,
      key,
      partition: metadata.partition >= 0 ? metadata.partition : null,
      activeHost: active,
      standbyHosts: standbys,
      copies,
    };
  }

  private async read(
    store: string,
    key: string,
    host: string,
    role: CopyAnswer['role'],
    copyAt: string | undefined,
  ): Promise<CopyAnswer> {
    try {
      const found = await this.queries.lookup<string, unknown>(store, key, {
        ...(copyAt === undefined ? {} : { copyAt }),
      });
      return {
        host,
        role,
        answer: {
          ...(found.value === undefined ? {} : { value: displayValue(found.value) }),
          found: found.value !== undefined,
          stale: !found.active,
          lag: found.lag,
          servedBy: found.servedBy,
        },
      };
    } catch (error) {
      return { host, role, error: failureOf(error) };
    }
  }
}

/** A store value as JSON text: buffers as base64, big integers as digits. */
export function displayValue(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') return v.toString();
    if (v && typeof v === 'object' && (v as { type?: unknown }).type === 'Buffer') {
      const data = (v as { data?: unknown }).data;
      if (Array.isArray(data)) return `base64:${Buffer.from(data as number[]).toString('base64')}`;
    }
    return v;
  });
}
