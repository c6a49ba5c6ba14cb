import Module from 'node:module';
import { dirname } from 'node:path';
import { decodeMessagesModule } from './decode-messages';
import { installCommittedFetch, type FetchingBroker } from './filter-aborted-messages';
import { installConnectionDisconnect, type DisconnectingConnection } from './connection-disconnect';
import { installFetchEnds, type EndReportingBroker } from './fetch-ends';
import { groupMessagesPerPartition } from './group-messages-per-partition';
import { installGroupRejoin, type HeartbeatingConsumerGroup } from './group-rejoin';
import {
  installCoordinatorRefresh,
  type CoordinatedConsumerGroup,
} from './group-coordinator-refresh';
import { kafkajsTransientFault } from './kafkajs-transient-faults';
import { locateKafkajs, type KafkajsInstallation } from './kafkajs-internals';
import { KafkajsUnsupportedError } from '../../errors/kafkajs-unsupported.error';
import { produceV3RequestModule } from './produce-v3-request';
import { decodeRecordV0 } from './record-v0-decoder';
import {
  installTransactionEndRetry,
  type CoordinatorFindingCluster,
} from './transaction-end-retry';
import {
  scheduleCheckPendingRequests,
  type SchedulingRequestQueue,
} from './request-queue-schedule';

/** The kafkajs release the replacements are written from (kafkajs is no longer released). */
export const KAFKAJS_FIXED_VERSION = '2.2.4';

/** The kafkajs modules replaced before kafkajs loads them, by path inside the package. */
export const REPLACED_KAFKAJS_MODULES = {
  groupMessagesPerPartition: './src/producer/groupMessagesPerPartition',
  produceV3Request: './src/protocol/requests/produce/v3/request',
  recordV0Decoder: './src/protocol/recordBatch/record/v0/decoder',
  decodeMessages: './src/protocol/requests/fetch/v4/decodeMessages',
} as const;

const REQUEST_QUEUE = './src/network/requestQueue';
const CONNECTION = './src/network/connection';
const BROKER = './src/broker';
const CONSUMER_GROUP = './src/consumer/consumerGroup';
const CLUSTER = './src/cluster';
const ERRORS = './src/errors';
/** The faults after which a group's coordinator is found again: it moved, died or hangs. */
const LOST_COORDINATOR = new Set(['coordinator', 'connection', 'timeout']);

/** What {@link installKafkajsFixes} did. */
export interface KafkajsFixesOutcome {
  /** The kafkajs version installed; `undefined` when it could not be located. */
  readonly version: string | undefined;
  /** The fixes in effect: replaced modules, and the patched `RequestQueue` method. */
  readonly applied: readonly string[];
  /** Why the others are not: the kafkajs client refuses to start while any is listed. */
  readonly skipped: readonly string[];
}

/** Options of {@link installKafkajsFixes}: tests point it at another installation. */
export interface KafkajsFixesOptions {
  readonly installation?: KafkajsInstallation;
  readonly cache?: NodeJS.Dict<NodeJS.Module>;
}

let installed: KafkajsFixesOutcome | undefined;

/**
 * Applies the engine's fixes to kafkajs 2.2.4, once per process, before anything loads the
 * modules they replace: the producer's grouping of a send's messages per partition (linear
 * instead of quadratic), the Produce v3 request's record building (one pass, no copies), the
 * fetched records' decoding (no `Long` per record, no header object copies; a record batch that
 * compaction emptied moves the consumer past it instead of holding it there), the
 * read_committed filter of aborted transactions ({@link installCommittedFetch}), each fetched
 * partition's end reported to the group consumer that fetched it ({@link installFetchEnds}), the
 * request queue's negative timeout (a `TimeoutNegativeWarning` on Node 24), the `connect`
 * listeners a failed connection's disconnects pile up ({@link installConnectionDisconnect}), a
 * group's coordinator found again when it moved or died ({@link installCoordinatorRefresh}), a
 * transaction's end sent again on a transient fault ({@link installTransactionEndRetry}), and
 * a way for a member to rejoin its group without leaving it ({@link installGroupRejoin}). The
 * four modules are pre-seeded into `require.cache` under their own file names, so kafkajs' own
 * `require` finds the replacements; the methods are replaced on `RequestQueue.prototype`,
 * `Connection.prototype`, `Broker.prototype`, `ConsumerGroup.prototype` and `Cluster.prototype` (which works whatever
 * loaded kafkajs first).
 *
 * Never throws, and warns of nothing: a kafkajs of another version, one the engine cannot
 * locate, or one whose modules another module loaded first, is left unpatched (or partly), and
 * the outcome says why; the kafkajs client then refuses to start ({@link assertKafkajsFixed}).
 * An application on `@platformatic/kafka` never needs them.
 */
export function installKafkajsFixes(options: KafkajsFixesOptions = {}): KafkajsFixesOutcome {
  const custom = options.installation !== undefined || options.cache !== undefined;
  if (installed && !custom) return installed;
  const outcome = apply(options);
  if (!custom) installed = outcome;
  return outcome;
}

/**
 * Refuses to run kafkajs without the engine's fixes: what the kafkajs client does when it is
 * created.
 *
 * @throws KafkajsUnsupportedError naming the kafkajs found, the one supported and why the
 *   fixes are not in effect (see the error for what to do).
 */
export function assertKafkajsFixed(outcome: KafkajsFixesOutcome = installKafkajsFixes()): void {
  if (outcome.skipped.length === 0) return;
  throw new KafkajsUnsupportedError(outcome.version, KAFKAJS_FIXED_VERSION, outcome.skipped);
}

function apply(options: KafkajsFixesOptions): KafkajsFixesOutcome {
  let kafkajs: KafkajsInstallation;
  try {
    kafkajs = options.installation ?? locateKafkajs();
  } catch (error) {
    const reason = `kafkajs could not be located (${String(error)})`;
    return { version: undefined, applied: [], skipped: [reason] };
  }
  const { version } = kafkajs;
  if (version !== KAFKAJS_FIXED_VERSION) {
    const reason = `kafkajs ${version} is installed, the fixes are for ${KAFKAJS_FIXED_VERSION}`;
    return { version, applied: [], skipped: [reason] };
  }
  const cache = options.cache ?? require.cache;
  const applied: string[] = [];
  const skipped: string[] = [];
  const replacements: Record<keyof typeof REPLACED_KAFKAJS_MODULES, unknown> = {
    groupMessagesPerPartition,
    produceV3Request: produceV3RequestModule(kafkajs.load),
    recordV0Decoder: decodeRecordV0,
    decodeMessages: decodeMessagesModule(kafkajs.load),
  };
  for (const [name, path] of Object.entries(REPLACED_KAFKAJS_MODULES)) {
    const filename = kafkajs.resolve(path);
    if (cache[filename]) {
      skipped.push(`${name}: kafkajs loaded ${path} before @nest-streams/streams`);
      continue;
    }
    cache[filename] = preloadedModule(filename, replacements[name as keyof typeof replacements]);
    applied.push(name);
  }
  // Through this module's own `require`: the same class kafkajs uses in Node, and under a
  // module system of its own (Jest) the one its modules share.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const queueClass = require(kafkajs.resolve(REQUEST_QUEUE)) as {
    prototype: SchedulingRequestQueue & { scheduleCheckPendingRequests(): void };
  };
  queueClass.prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
  applied.push('scheduleCheckPendingRequests');
  installConnectionDisconnect(
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(kafkajs.resolve(CONNECTION)) as { prototype: DisconnectingConnection },
  );
  applied.push('connectionDisconnect');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const brokerClass = require(kafkajs.resolve(BROKER)) as {
    prototype: FetchingBroker & EndReportingBroker;
  };
  installCommittedFetch(brokerClass);
  applied.push('filterAbortedMessages');
  installFetchEnds(brokerClass);
  applied.push('fetchEnds');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const groupClass = require(kafkajs.resolve(CONSUMER_GROUP)) as {
    prototype: HeartbeatingConsumerGroup;
  };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { KafkaJSProtocolError } = require(kafkajs.resolve(ERRORS)) as {
    KafkaJSProtocolError: new (e: object) => Error;
  };
  installGroupRejoin(
    groupClass,
    (message) =>
      new KafkaJSProtocolError({
        type: 'REBALANCE_IN_PROGRESS',
        code: 27,
        retriable: false,
        message,
      }),
  );
  applied.push('groupRejoin');
  installCoordinatorRefresh(
    groupClass as unknown as { prototype: CoordinatedConsumerGroup },
    (error) => LOST_COORDINATOR.has(kafkajsTransientFault(error)?.kind ?? ''),
  );
  applied.push('groupCoordinatorRefresh');
  installTransactionEndRetry(
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(kafkajs.resolve(CLUSTER)) as { prototype: CoordinatorFindingCluster },
  );
  applied.push('transactionEndRetry');
  return { version, applied, skipped };
}

/** A loaded CommonJS module whose exports are `exports`, as `require` caches one. */
function preloadedModule(filename: string, exports: unknown): NodeJS.Module {
  const module = new Module(filename);
  module.filename = filename;
  module.paths = (
    Module as unknown as { _nodeModulePaths(dir: string): string[] }
  )._nodeModulePaths(dirname(filename));
  module.exports = exports;
  module.loaded = true;
  return module;
}
