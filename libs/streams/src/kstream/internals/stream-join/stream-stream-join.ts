import type { StateStore } from '../../../processor/state-store';
import type { StoreBuilder } from '../../../processor/store-builder';
import type { ValueJoiner } from '../../functions';
import type { StreamJoined } from '../../stream-joined';
import type { JoinWindows } from '../../windows/join-windows';
import { bindingDefaultSerdes, serdeOrDefault, type DefaultSerde } from '../default-serde';
import { NAMES } from '../naming';
import { PassThroughProcessor } from '../pass-through.processor';
import { requireSameBuilder, unionTopics, type StreamNode } from '../stream-node';
import { JoinTimeTrackers } from './join-time-tracker';
import { KStreamJoinWindowProcessor } from './kstream-join-window.processor';
import { KStreamKStreamJoinProcessor, type JoinSideSpec } from './kstream-kstream-join.processor';
import { joinWindowStore, outerJoinStore, type JoinSerdes } from './stream-join-stores';

/** A joined side: its node and whether its key changed since its last repartition. */
export interface JoinInput<K, V> {
  readonly node: StreamNode<K, V>;
  readonly repartitionRequired: boolean;
}

/** Which stream-stream join: inner, left (this side outer) or outer (both sides outer). */
export type StreamJoinKind = 'inner' | 'left' | 'outer';

/** The node, processor and store names of one join, exactly as Kafka Streams makes them. */
interface JoinNames {
  readonly thisWindowed: string;
  readonly otherWindowed: string;
  readonly joinThis: string;
  readonly joinOther: string;
  readonly merge: string;
  readonly thisStore: string;
  readonly otherStore: string;
  readonly outerStore: string | undefined;
}

/**
 * Writes a stream-stream join (Kafka Streams' `KStreamImpl.doJoin` and `KStreamImplJoin`):
 * repartitions a side whose key changed (topics `<name>-left-repartition` and
 * `<name>-right-repartition` when the join is named, else `<node>-repartition`), records the
 * co-partitioning of both sides, then adds for each side a windowing processor
 * (`KSTREAM-WINDOWED-...`) keeping its records in its window store and a join processor
 * reading the other side's, and a merge (`KSTREAM-MERGE-...`) of both sides' results. Left
 * and outer joins add the shared store of records waiting for a partner
 * (`KSTREAM-OUTERSHARED-...-store`). Returns the merge's node; its key serde is the
 * `StreamJoined`'s only (as in Kafka Streams).
 *
 * @throws TopologyError for streams of two builders, a taken name, or store suppliers that
 *   do not fit the join (see {@link joinWindowStore}).
 */
export function streamStreamJoin<K, V1, V2, VR>(
  left: JoinInput<K, V1>,
  right: JoinInput<K, V2>,
  joiner: ValueJoiner<V1 | null, V2 | null, VR, K>,
  windows: JoinWindows,
  streamJoined: StreamJoined<K, V1, V2> | undefined,
  kind: StreamJoinKind,
): StreamNode<K, VR> {
  requireSameBuilder(left.node, right.node, kind === 'inner' ? 'join' : `${kind}Join`);
  const { builder } = left.node;
  const name = streamJoined?.name;
  const thisNode = joinSide(
    left,
    name && `${name}-left`,
    streamJoined?.keySerde,
    streamJoined?.valueSerde,
  );
  const otherNode = joinSide(
    right,
    name && `${name}-right`,
    streamJoined?.keySerde,
    streamJoined?.otherValueSerde,
  );
  const sourceTopics = unionTopics(thisNode.sourceTopics, otherNode.sourceTopics);
  builder.copartition(sourceTopics);
  const names = joinNames(thisNode, streamJoined, kind);
  const pending: DefaultSerde<unknown>[] = [];
  const serdes: JoinSerdes<K, V1, V2> = {
    keySerde: serdeOrDefault(
      streamJoined?.keySerde ?? thisNode.keySerde ?? otherNode.keySerde,
      'key',
      names.thisStore,
      pending,
    ),
    valueSerde: serdeOrDefault(
      streamJoined?.valueSerde ?? thisNode.valueSerde,
      'value',
      names.thisStore,
      pending,
    ),
    otherValueSerde: serdeOrDefault(
      streamJoined?.otherValueSerde ?? otherNode.valueSerde,
      'value',
      names.otherStore,
      pending,
    ),
  };
  const thisSupplier = streamJoined?.thisStoreSupplier;
  const otherSupplier = streamJoined?.otherStoreSupplier;
  const stores: [StoreBuilder<StateStore>, ...string[]][] = [
    [
      joinWindowStore(
        names.thisStore,
        windows,
        thisSupplier,
        streamJoined,
        serdes.keySerde,
        serdes.valueSerde,
      ),
      names.thisWindowed,
      names.joinOther,
    ],
    [
      joinWindowStore(
        names.otherStore,
        windows,
        otherSupplier,
        streamJoined,
        serdes.keySerde,
        serdes.otherValueSerde,
      ),
      names.otherWindowed,
      names.joinThis,
    ],
  ];
  if (names.outerStore !== undefined) {
    stores.push([
      outerJoinStore(names.outerStore, thisSupplier, streamJoined, serdes),
      names.joinThis,
      names.joinOther,
    ]);
  }
  const trackers = new JoinTimeTrackers();
  const common = {
    outerJoinStore: names.outerStore,
    windowsAfterMs: windows.afterMs,
    windowsBeforeMs: windows.beforeMs,
    graceMs: windows.gracePeriodMs(),
    trackers,
  };
  const thisSide: JoinSideSpec<K, V1, V2, VR> = {
    ...common,
    leftSide: true,
    otherWindowStore: names.otherStore,
    outer: kind !== 'inner',
    joinBeforeMs: windows.beforeMs,
    joinAfterMs: windows.afterMs,
    joiner: (key, value, other) => joiner(value, other, key),
  };
  const otherSide: JoinSideSpec<K, V2, V1, VR> = {
    ...common,
    leftSide: false,
    otherWindowStore: names.thisStore,
    outer: kind === 'outer',
    joinBeforeMs: windows.afterMs,
    joinAfterMs: windows.beforeMs,
    joiner: (key, value, other) => joiner(other, value, key),
  };
  const { topology } = builder;
  const bind = <KI, VI, KO, VO>(
    supplier: () => import('../../../processor/processor').Processor<KI, VI, KO, VO>,
  ) => bindingDefaultSerdes(supplier, pending);
  topology.addProcessor(
    names.thisWindowed,
    bind(() => new KStreamJoinWindowProcessor<K, V1>(names.thisStore)),
    thisNode.name,
  );
  topology.addProcessor(
    names.otherWindowed,
    bind(() => new KStreamJoinWindowProcessor<K, V2>(names.otherStore)),
    otherNode.name,
  );
  topology.addProcessor(
    names.joinThis,
    bind(() => new KStreamKStreamJoinProcessor<K, V1, V2, V1, V2, VR>(thisSide)),
    names.thisWindowed,
  );
  topology.addProcessor(
    names.joinOther,
    bind(() => new KStreamKStreamJoinProcessor<K, V1, V2, V2, V1, VR>(otherSide)),
    names.otherWindowed,
  );
  topology.addProcessor(
    names.merge,
    () => new PassThroughProcessor<K, VR>(),
    names.joinThis,
    names.joinOther,
  );
  for (const [store, ...users] of stores) topology.addStateStore(store, ...users);
  return {
    builder,
    name: names.merge,
    keySerde: streamJoined?.keySerde,
    valueSerde: undefined,
    sourceTopics,
  };
}

/** The side's node, repartitioned first (into `<prefix>-repartition`) when its key changed. */
function joinSide<K, V>(
  side: JoinInput<K, V>,
  namedPrefix: string | undefined,
  keySerdeOverride: StreamNode<K, V>['keySerde'],
  valueSerdeOverride: StreamNode<K, V>['valueSerde'],
): StreamNode<K, V> {
  const node = side.node;
  if (!side.repartitionRequired) return node;
  const keySerde = keySerdeOverride ?? node.keySerde;
  const valueSerde = valueSerdeOverride ?? node.valueSerde;
  const { topic, sourceName } = node.builder.repartition({
    parentName: node.name,
    prefix: namedPrefix || node.name,
    keySerde,
    valueSerde,
  });
  return {
    builder: node.builder,
    name: sourceName,
    keySerde,
    valueSerde,
    sourceTopics: new Set([topic]),
  };
}

/**
 * Kafka Streams' names, burning indexes in its order: both windowing processors (unless
 * named), both join processors (always, even when named) and the merge (unless named).
 */
function joinNames<K, V1, V2>(
  thisNode: StreamNode<K, V1>,
  streamJoined: StreamJoined<K, V1, V2> | undefined,
  kind: StreamJoinKind,
): JoinNames {
  const { builder } = thisNode;
  const name = streamJoined?.name;
  const leftOuter = kind !== 'inner';
  const rightOuter = kind === 'outer';
  const thisSuffix = rightOuter ? '-outer-this-join' : '-this-join';
  const otherSuffix = leftOuter ? '-outer-other-join' : '-other-join';
  const thisWindowed = builder.suffixedOrGenerate(name, '-this-windowed', NAMES.WINDOWED);
  const otherWindowed = builder.suffixedOrGenerate(name, '-other-windowed', NAMES.WINDOWED);
  const thisPrefix = rightOuter ? NAMES.OUTERTHIS : NAMES.JOINTHIS;
  const joinThisGenerated = builder.newProcessorName(thisPrefix);
  const joinOtherGenerated = builder.newProcessorName(
    leftOuter ? NAMES.OUTEROTHER : NAMES.JOINOTHER,
  );
  const merge = builder.suffixedOrGenerate(name, '-merge', NAMES.MERGE);
  const base = streamJoined?.storeName;
  const thisSupplier = streamJoined?.thisStoreSupplier;
  const outerSuffix = rightOuter ? '-outer-shared-join' : '-left-shared-join';
  const outerBase = thisSupplier?.name
    ? `${thisSupplier.name}${outerSuffix}`
    : base !== undefined
      ? `${base}${outerSuffix}`
      : `${NAMES.OUTERSHARED}${joinThisGenerated.slice(thisPrefix.length)}`;
  return {
    thisWindowed,
    otherWindowed,
    joinThis: name ? `${name}${thisSuffix}` : joinThisGenerated,
    joinOther: name ? `${name}${otherSuffix}` : joinOtherGenerated,
    merge,
    thisStore:
      thisSupplier?.name ??
      `${base !== undefined ? `${base}${thisSuffix}` : joinThisGenerated}-store`,
    otherStore:
      streamJoined?.otherStoreSupplier?.name ??
      `${base !== undefined ? `${base}${otherSuffix}` : joinOtherGenerated}-store`,
    outerStore: leftOuter ? `${outerBase}-store` : undefined,
  };
}
