import type { Serde } from '../../../serde/serde';
import { Serdes } from '../../../serde/serdes';
import { Stores } from '../../../state/stores';
import type { ValueJoiner } from '../../functions';
import type { Materialized } from '../../materialized';
import type { TableJoined } from '../../table-joined';
import { bindingDefaultSerdes, serdeOrDefault, type DefaultSerde } from '../default-serde';
import { KTableSourceSupplier } from '../ktable-source.processor';
import { NAMES } from '../naming';
import { storeNameFor, timestampedKeyValueStore } from '../store-materializer';
import { requireSameBuilder, unionTopics } from '../stream-node';
import type { TableNode } from '../table-node';
import { ForeignTableJoinProcessor } from './foreign-table-join.processor';
import { ResponseJoinProcessor } from './response-join.processor';
import { SubscriptionJoinProcessor } from './subscription-join.processor';
import { SubscriptionReceiveProcessor } from './subscription-receive.processor';
import { SubscriptionSendProcessor, type ForeignKeyExtractor } from './subscription-send.processor';
import {
  CombinedKeySchema,
  SubscriptionResponseWrapperSerde,
  SubscriptionWrapperSerde,
  type SubscriptionResponseWrapper,
  type SubscriptionWrapper,
} from './subscription-wrappers';

/**
 * Writes a foreign-key table-table join (Kafka Streams' `KTableImpl.doJoinOnForeignKey`), with
 * Kafka Streams 4.x's names (`KTABLE-FK-JOIN-...`, or `<TableJoined name>-...`):
 * - the primary side subscribes each row to its foreign key through
 *   `<name>-subscription-registration-topic` (co-partitioned with the foreign table's topics);
 * - the foreign side keeps the subscriptions in `<name>-subscription-store` (change-logged),
 *   answers each new subscription and, on each foreign row change, every subscriber, through
 *   `<name>-subscription-response-topic` (co-partitioned with the primary table, each answer
 *   sent to its row's partition);
 * - the primary side keeps the answers to its rows' current values, joins them and writes
 *   the result table (`KTABLE-FK-JOIN-OUTPUT-<n>`, store `Materialized`'s, else created only
 *   when read).
 * Both tables send old values. Returns the result table's node.
 *
 * @throws TopologyError for tables of two builders or a taken name.
 */
export function foreignKeyJoin<K, V, KO, VO, VR>(
  primary: TableNode<K, V>,
  foreign: TableNode<KO, VO>,
  extractor: ForeignKeyExtractor<K, V, KO>,
  joiner: ValueJoiner<V | null, VO | null, VR, K>,
  leftJoin: boolean,
  tableJoined: TableJoined<K, KO> | undefined,
  materialized: Materialized<K, VR> | undefined,
): TableNode<K, VR> {
  requireSameBuilder(primary.node, foreign.node, leftJoin ? 'leftJoin' : 'join');
  const { builder } = primary.node;
  const { topology } = builder;
  foreign.supplier.enableSendingOldValues(true);
  primary.supplier.enableSendingOldValues(true);
  const name = tableJoined?.name;
  const named = (suffix: string, prefix: string): string =>
    builder.suffixedOrGenerate(name, suffix, prefix);
  const registrationTopic = `${named('-subscription-registration', NAMES.FK_SUBSCRIPTION_REGISTRATION)}-topic`;
  topology.addInternalTopic(registrationTopic);
  const pending: DefaultSerde<unknown>[] = [];
  const keySerde = serdeOrDefault(primary.node.keySerde, 'key', registrationTopic, pending);
  const valueSerde = serdeOrDefault(primary.node.valueSerde, 'value', registrationTopic, pending);
  const foreignKeySerde = serdeOrDefault(foreign.node.keySerde, 'key', registrationTopic, pending);
  const foreignValueSerde = serdeOrDefault(
    foreign.node.valueSerde,
    'value',
    registrationTopic,
    pending,
  );
  const bind = <S>(supplier: S): S => bindingDefaultSerdes(supplier as never, pending) as S;
  const wrapperSerde = new SubscriptionWrapperSerde(keySerde);
  const responseSerde = new SubscriptionResponseWrapperSerde(foreignValueSerde);
  const schema = new CombinedKeySchema(foreignKeySerde, keySerde);

  const sendName = named(
    '-subscription-registration-processor',
    NAMES.FK_SUBSCRIPTION_REGISTRATION,
  );
  topology.addProcessor(
    sendName,
    bind(() => new SubscriptionSendProcessor(extractor, foreignKeySerde, valueSerde, leftJoin)),
    primary.node.name,
  );
  const otherPartitioner = tableJoined?.otherPartitioner;
  const registrationSink = named('-subscription-registration-sink', NAMES.KTABLE_SINK);
  topology.addSink<KO, SubscriptionWrapper<K>>(
    registrationSink,
    registrationTopic,
    {
      keySerde: foreignKeySerde,
      valueSerde: wrapperSerde,
      partitioner: otherPartitioner && ((t, k, _v, n) => otherPartitioner(t, k, null, n)),
    },
    sendName,
  );
  const registrationSource = named('-subscription-registration-source', NAMES.KTABLE_SOURCE);
  topology.addSource(registrationSource, registrationTopic, {
    keySerde: foreignKeySerde,
    valueSerde: wrapperSerde,
  });
  builder.copartition(unionTopics(foreign.node.sourceTopics, new Set([registrationTopic])));

  const storeName = named('-subscription-store', NAMES.FK_SUBSCRIPTION_STATE_STORE);
  const subscriptions = Stores.timestampedKeyValueStoreBuilder(
    Stores.persistentTimestampedKeyValueStore(storeName),
    Serdes.Bytes(),
    wrapperSerde,
  ).withCachingDisabled();
  const receiveName = named('-subscription-receive', NAMES.FK_SUBSCRIPTION_PROCESSOR);
  topology.addProcessor(
    receiveName,
    bind(() => new SubscriptionReceiveProcessor<KO, K>(storeName, schema)),
    registrationSource,
  );
  topology.addStateStore(subscriptions, receiveName);
  const foreignRows = foreign.supplier.view();
  const joinForeignName = named('-subscription-join-foreign', NAMES.FK_SUBSCRIPTION_PROCESSOR);
  topology.addProcessor(
    joinForeignName,
    bind(() => new SubscriptionJoinProcessor<KO, K, VO>(foreignRows)),
    receiveName,
  );
  topology.connectProcessorAndStateStores(joinForeignName, ...foreignRows.storeNames());
  const foreignJoinName = named('-foreign-join-subscription', NAMES.FK_SUBSCRIPTION_PROCESSOR);
  topology.addProcessor(
    foreignJoinName,
    bind(() => new ForeignTableJoinProcessor<KO, K, VO>(storeName, schema)),
    foreign.node.name,
  );
  topology.connectProcessorAndStateStores(foreignJoinName, storeName);

  const responseTopic = `${named('-subscription-response', NAMES.FK_SUBSCRIPTION_RESPONSE)}-topic`;
  topology.addInternalTopic(responseTopic);
  const partitioner = tableJoined?.partitioner;
  topology.addSink<K, SubscriptionResponseWrapper<VO>>(
    named('-subscription-response-sink', NAMES.KTABLE_SINK),
    responseTopic,
    {
      keySerde,
      valueSerde: responseSerde,
      partitioner: partitioner
        ? (t, k, _v, n) => partitioner(t, k, null, n)
        : (_t, _k, v) => v.primaryPartition,
    },
    joinForeignName,
    foreignJoinName,
  );
  const responseSource = named('-subscription-response-source', NAMES.KTABLE_SOURCE);
  topology.addSource(responseSource, responseTopic, { keySerde, valueSerde: responseSerde });
  const sourceTopics = unionTopics(primary.node.sourceTopics, new Set([responseTopic]));
  builder.copartition(sourceTopics);

  const primaryRows = primary.supplier.view();
  const resolverName = named(
    '-subscription-response-resolver',
    NAMES.FK_SUBSCRIPTION_RESPONSE_RESOLVER,
  );
  topology.addProcessor(
    resolverName,
    bind(() => new ResponseJoinProcessor<K, V, VO, VR>(primaryRows, valueSerde, joiner, leftJoin)),
    responseSource,
  );
  topology.connectProcessorAndStateStores(resolverName, ...primaryRows.storeNames());
  return resultTable(
    primary,
    resolverName,
    named('-result', NAMES.FK_OUTPUT),
    materialized,
    pending,
    sourceTopics,
  );
}

/** The join's result table (`<name>-result`): a table source, materialized when named or read. */
function resultTable<K, V, VR>(
  primary: TableNode<K, V>,
  parent: string,
  name: string,
  materialized: Materialized<K, VR> | undefined,
  pending: readonly DefaultSerde<unknown>[],
  sourceTopics: ReadonlySet<string>,
): TableNode<K, VR> {
  const { builder } = primary.node;
  const { storeName, queryableStoreName } = storeNameFor(builder, materialized, NAMES.FK_OUTPUT);
  const keySerde: Serde<K> | undefined = materialized?.keySerde ?? primary.node.keySerde;
  const store = timestampedKeyValueStore(
    storeName,
    materialized,
    keySerde,
    materialized?.valueSerde,
  );
  const addStore = (): void => void builder.topology.addStateStore(store.builder, name);
  const supplier = new KTableSourceSupplier<K, VR>(
    storeName,
    queryableStoreName === undefined ? addStore : undefined,
  );
  const serdes = [...store.defaultSerdes, ...pending];
  builder.topology.addProcessor(
    name,
    bindingDefaultSerdes(supplier.processorSupplier(), serdes),
    parent,
  );
  if (queryableStoreName !== undefined) addStore();
  return {
    node: { builder, name, keySerde, valueSerde: materialized?.valueSerde, sourceTopics },
    supplier,
    queryableStoreName,
  };
}
