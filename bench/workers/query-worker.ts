/**
 * Child process of the `query` scenario for nest-streams: aggregates the input (the
 * `aggregate` topology) until the group has committed every record, then
 * 1. checks `store.get` of every key of the keys file against the truth (also the warm-up),
 * 2. times the same gets again, one by one, with `process.hrtime.bigint()` (KafkaStreams.store
 *    over the local key-value store), then the first 20,000 keys through IQv2 (`streams.query` with a
 *    `KeyQuery`, every local partition asked, as a caller without the key's partition would),
 * 3. serves `GET /stats/:userId` (store.get + JSON) on a bare `node:http` server on
 *    `--http-port` for the harness's HTTP load, until `GET /quit`,
 * and prints a WorkerResult line whose `details` hold the figures.
 *
 *   node --import tsx bench/workers/query-worker.ts --bootstrap-servers H:P --input-topic T
 *     --application-id A --state-dir D --commit-interval-ms 1000 --cache-max-bytes 10485760
 *     --keys-file K --truth-file F --http-port P --timeout-ms 300000
 *     [--kafka-client @platformatic/kafka]
 */
import { createServer } from 'node:http';
import {
  KafkaStreams,
  KeyQuery,
  QueryableStoreTypes,
  StateQueryRequest,
  StoreQueryParameters,
} from '@nest-streams/streams';
import { summarizeNanos } from '../harness/percentiles';
import { aggregateTopology } from '../topologies/aggregate-topology';
import { STATS_STORE, type BenchStats } from '../topologies/bench-types';
import { probeInput, startAndDrain } from './streams-drain';
import { readKeys, readStatsTruth, statsMismatch } from './query-files';
import { emitResult, kafkaClientConfig, peakRssMb, requiredOptions } from './worker-support';

/** IQv2 is timed over the first keys only (its gets are slower). */
const IQV2_TIMED = 20_000;

async function main(): Promise<void> {
  const args = requiredOptions(
    [
      'bootstrap-servers',
      'input-topic',
      'application-id',
      'state-dir',
      'commit-interval-ms',
      'cache-max-bytes',
      'keys-file',
      'truth-file',
      'http-port',
      'timeout-ms',
    ],
    ['kafka-client'],
  );
  const client = kafkaClientConfig(args['kafka-client']);
  const input = args['input-topic'];
  const groupId = args['application-id'];
  const timeoutMs = Number(args['timeout-ms']);
  const brokers = args['bootstrap-servers'].split(',');
  const probe = await probeInput(brokers, groupId, input);
  const inputRecords = probe.records;

  const streams = new KafkaStreams(
    aggregateTopology(input),
    {
      applicationId: groupId,
      bootstrapServers: brokers,
      stateDir: args['state-dir'],
      commitIntervalMs: Number(args['commit-interval-ms']),
      statestoreCacheMaxBytes: Number(args['cache-max-bytes']),
      ...client,
    },
    { logger: { info: () => undefined, warn: (m: string) => process.stderr.write(`${m}\n`) } },
  );
  const processingSeconds = await startAndDrain(streams, probe, groupId, input, timeoutMs);

  const truth = await readStatsTruth(args['truth-file']);
  const keys = await readKeys(args['keys-file']);
  const store = streams.store(
    StoreQueryParameters.fromNameAndType(
      STATS_STORE,
      QueryableStoreTypes.keyValueStore<string, BenchStats>(),
    ),
  );

  // 1. Check every key (and warm up): a wrong answer fails the run.
  let mismatches = 0;
  let firstMismatch: string | undefined;
  const check = (key: string, value: BenchStats | undefined): void => {
    const problem = statsMismatch(truth, key, value);
    if (problem) {
      mismatches++;
      firstMismatch ??= problem;
    }
  };
  for (const key of keys) check(key, store.get(key));
  const iqv2 = async (key: string): Promise<BenchStats | undefined> => {
    const result = await streams.query(
      StateQueryRequest.inStore(STATS_STORE).withQuery(KeyQuery.withKey(key)).request,
    );
    for (const partition of result.partitionResults) {
      if (partition.success && partition.result != null) {
        // Plain values over a timestamped store, as Kafka Streams' KeyQuery.
        return partition.result as BenchStats;
      }
    }
    return undefined;
  };
  const iqv2Checked = Math.min(keys.length, 5_000);
  for (let i = 0; i < iqv2Checked; i++) check(keys[i], await iqv2(keys[i]));

  // 2. Timed gets: store.get, then IQv2.
  const getNs = new Float64Array(keys.length);
  let sink = 0;
  let loopStart = process.hrtime.bigint();
  for (let i = 0; i < keys.length; i++) {
    const t0 = process.hrtime.bigint();
    const value = store.get(keys[i]);
    getNs[i] = Number(process.hrtime.bigint() - t0);
    sink += value?.count ?? 0;
  }
  const getSeconds = Number(process.hrtime.bigint() - loopStart) / 1e9;
  const iqv2Ns = new Float64Array(Math.min(keys.length, IQV2_TIMED));
  loopStart = process.hrtime.bigint();
  for (let i = 0; i < iqv2Ns.length; i++) {
    const t0 = process.hrtime.bigint();
    const value = await iqv2(keys[i]);
    iqv2Ns[i] = Number(process.hrtime.bigint() - t0);
    sink += value?.count ?? 0;
  }
  const iqv2Seconds = Number(process.hrtime.bigint() - loopStart) / 1e9;
  const expectedSink = keys.reduce(
    (total, key, i) => total + (i < iqv2Ns.length ? 2 : 1) * (truth.get(key)?.count ?? 0),
    0,
  );
  if (sink !== expectedSink) {
    mismatches++;
    firstMismatch ??= `timed gets: sum of counts ${sink}, expected ${expectedSink}`;
  }

  // 3. A bare HTTP endpoint for the harness's load, until GET /quit.
  let served = 0;
  await new Promise<void>((resolve, reject) => {
    const server = createServer((request, response) => {
      const url = request.url ?? '';
      if (url === '/quit') {
        response.end('bye');
        server.close(() => resolve());
        server.closeAllConnections();
        return;
      }
      const match = /^\/stats\/([^/?]+)$/.exec(url);
      const value = match ? store.get(decodeURIComponent(match[1])) : undefined;
      served++;
      if (!value) {
        response.writeHead(404).end();
        return;
      }
      const body = JSON.stringify({ count: value.count, sum: value.sum });
      response
        .writeHead(200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        })
        .end(body);
    });
    server.on('error', reject);
    server.listen(Number(args['http-port']), '127.0.0.1');
  });

  const get = summarizeNanos(getNs);
  const query = summarizeNanos(iqv2Ns);
  const peak = peakRssMb();
  await streams.close();
  emitResult({
    records: inputRecords,
    seconds: processingSeconds,
    peakRssMb: peak,
    storeEntries: keys.length,
    mismatches,
    firstMismatch,
    details: {
      gets: keys.length,
      getP50Ms: get.p50Ms,
      getP99Ms: get.p99Ms,
      getsPerSec: keys.length / getSeconds,
      iqv2P50Ms: query.p50Ms,
      iqv2P99Ms: query.p99Ms,
      iqv2PerSec: iqv2Ns.length / iqv2Seconds,
      iqv2Timed: iqv2Ns.length,
      iqv2Checked,
      httpServed: served,
      kafkaClient: client.kafkaClient,
    },
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `query-worker failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
