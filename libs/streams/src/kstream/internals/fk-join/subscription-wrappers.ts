import type { Serde } from '../../../serde/serde';
import { SerializationError } from '../../../serde/serialization.error';

/** What the foreign side does with a subscription (Kafka Streams' `SubscriptionWrapper.Instruction`). */
export const Instruction = {
  /** Forget the subscription, send nothing (the row moved to another foreign key). */
  DELETE_KEY_NO_PROPAGATE: 0,
  /** Forget the subscription and send a delete (the row was deleted). */
  DELETE_KEY_AND_PROPAGATE: 1,
  /** Subscribe and answer, with `null` when the foreign row is missing (left join, or a moved row). */
  PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE: 2,
  /** Subscribe and answer only when the foreign row exists (a new row of an inner join). */
  PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE: 3,
} as const;

export type Instruction = (typeof Instruction)[keyof typeof Instruction];

/**
 * A primary row's subscription to a foreign key (Kafka Streams' `SubscriptionWrapper`,
 * version 1): the hash of the row's value, what to do, the row's key and partition.
 */
export interface SubscriptionWrapper<K> {
  readonly hash: Buffer | null;
  readonly instruction: Instruction;
  readonly primaryKey: K;
  readonly primaryPartition: number;
}

/**
 * The foreign side's answer to a subscription (Kafka Streams' `SubscriptionResponseWrapper`):
 * the hash of the primary value it answers, and the foreign value (`null`: none). The primary
 * partition travels only in memory, to the response sink's partitioner.
 */
export interface SubscriptionResponseWrapper<VO> {
  readonly originalValueHash: Buffer | null;
  readonly foreignValue: VO | null;
  readonly primaryPartition?: number;
}

const VERSION = 1;
const HASH_NULL = 0x80;

/**
 * Kafka's `SubscriptionWrapperSerde` layout, version 1: a byte of version (with 0x80 when the
 * hash is null), the instruction, the 16-byte hash when present, the primary key's bytes,
 * then the primary partition (4 bytes).
 *
 * Errors: `deserialize` throws `SerializationError` for another version or a truncated record.
 */
export class SubscriptionWrapperSerde<K> implements Serde<SubscriptionWrapper<K>> {
  constructor(private readonly primaryKeySerde: Serde<K>) {}

  serialize(data: SubscriptionWrapper<K>, topic?: string): Buffer {
    const key = this.primaryKeySerde.serialize(data.primaryKey, topic);
    const head = Buffer.from([VERSION | (data.hash === null ? HASH_NULL : 0), data.instruction]);
    const partition = Buffer.allocUnsafe(4);
    partition.writeInt32BE(data.primaryPartition, 0);
    return Buffer.concat(
      data.hash === null ? [head, key, partition] : [head, data.hash, key, partition],
    );
  }

  deserialize(bytes: Buffer, topic?: string): SubscriptionWrapper<K> {
    const version = bytes[0] & 0x7f;
    if (version !== VERSION || bytes.length < 6) {
      throw new SerializationError(`not a subscription of version ${VERSION}`, { topic });
    }
    const hashNull = (bytes[0] & HASH_NULL) !== 0;
    const keyFrom = hashNull ? 2 : 18;
    if (bytes.length < keyFrom + 4)
      throw new SerializationError('a subscription is truncated', { topic });
    return {
      hash: hashNull ? null : Buffer.from(bytes.subarray(2, 18)),
      instruction: bytes[1] as Instruction,
      primaryKey: this.primaryKeySerde.deserialize(
        bytes.subarray(keyFrom, bytes.length - 4),
        topic,
      ),
      primaryPartition: bytes.readInt32BE(bytes.length - 4),
    };
  }
}

/**
 * Kafka's `SubscriptionResponseWrapperSerde` layout: a byte of version (with 0x80 when the
 * hash is null), the 16-byte hash when present, then the foreign value's bytes (none: `null`).
 *
 * Errors: `deserialize` throws `SerializationError` for another version.
 */
export class SubscriptionResponseWrapperSerde<VO> implements Serde<
  SubscriptionResponseWrapper<VO>
> {
  constructor(private readonly foreignValueSerde: Serde<VO>) {}

  serialize(data: SubscriptionResponseWrapper<VO>, topic?: string): Buffer {
    const value =
      data.foreignValue === null
        ? Buffer.alloc(0)
        : this.foreignValueSerde.serialize(data.foreignValue, topic);
    const hash = data.originalValueHash;
    const head = Buffer.from([0 | (hash === null ? HASH_NULL : 0)]);
    return Buffer.concat(hash === null ? [head, value] : [head, hash, value]);
  }

  deserialize(bytes: Buffer, topic?: string): SubscriptionResponseWrapper<VO> {
    if ((bytes[0] & 0x7f) !== 0)
      throw new SerializationError('not a subscription response of version 0', { topic });
    const hashNull = (bytes[0] & HASH_NULL) !== 0;
    const valueFrom = hashNull ? 1 : 17;
    return {
      originalValueHash: hashNull ? null : Buffer.from(bytes.subarray(1, 17)),
      foreignValue:
        bytes.length > valueFrom
          ? this.foreignValueSerde.deserialize(bytes.subarray(valueFrom), topic)
          : null,
    };
  }
}

/**
 * The subscription store's key (Kafka Streams' `CombinedKeySchema`): the foreign key's length
 * (4 bytes), its bytes, then the primary key's; a prefix scan of `prefix(fk)` finds every
 * subscriber of a foreign key.
 */
export class CombinedKeySchema<KO, K> {
  constructor(
    private readonly foreignKeySerde: Serde<KO>,
    private readonly primaryKeySerde: Serde<K>,
  ) {}

  toBytes(foreignKey: KO, primaryKey: K): Buffer {
    return Buffer.concat([this.prefix(foreignKey), this.primaryKeySerde.serialize(primaryKey)]);
  }

  prefix(foreignKey: KO): Buffer {
    const fk = this.foreignKeySerde.serialize(foreignKey);
    const length = Buffer.allocUnsafe(4);
    length.writeInt32BE(fk.length, 0);
    return Buffer.concat([length, fk]);
  }

  primaryKeyOf(bytes: Buffer): K {
    const fkLength = bytes.readInt32BE(0);
    return this.primaryKeySerde.deserialize(bytes.subarray(4 + fkLength));
  }
}
