import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { groupMessagesPerPartition } from './group-messages-per-partition';
import { KafkajsUnsupportedError } from '../../errors/kafkajs-unsupported.error';
import type { KafkaClientSettings } from '../kafka-client-settings';
import { kafkajsClientAdapters } from './kafkajs-client';
import {
  KAFKAJS_FIXED_VERSION,
  REPLACED_KAFKAJS_MODULES,
  assertKafkajsFixed,
  installKafkajsFixes,
} from './kafkajs-fixes';
import { locateKafkajs } from './kafkajs-internals';
import { produceV3RequestModule, type ProduceV3Arguments } from './produce-v3-request';

const REPO = resolve(__dirname, '../../../../..');
const kafkajs = locateKafkajs();

type Encoded = { encode(): Promise<{ buffer: Buffer }> };

/**
 * Runs `script` in a fresh Node process (the real `require.cache`, which Jest does not use),
 * with TypeScript through tsx; resolves with what it printed as JSON on its last line.
 */
function inNode<T>(script: string): T {
  const output = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: REPO,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(output.trim().split('\n').pop()!) as T;
}

const FIXES = join(__dirname, 'kafkajs.ts');
const quiet = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
};
/** The kafkajs client's settings (it connects to nothing until used). */
const SETTINGS: KafkaClientSettings = {
  kafkaClient: 'kafkajs',
  clientId: 'fixes-spec',
  bootstrapServers: ['127.0.0.1:1'],
  checkCrcs: true,
  groupProtocol: 'classic',
  retryBackoffMs: 100,
  retryBackoffMaxMs: 1_000,
  requestTimeoutMs: 30_000,
  deliveryTimeoutMs: 120_000,
  defaultApiTimeoutMs: 60_000,
};
// Schedules a pending-request check on an idle kafkajs RequestQueue, then reports the names of
// the process warnings seen (kafkajs' queue does it after every request).
const SCHEDULE_CHECK = `
  const RequestQueue = require(${JSON.stringify(kafkajs.resolve('./src/network/requestQueue'))});
  const warnings = [];
  process.on('warning', (warning) => warnings.push(warning.name));
  const logger = { debug() {}, info() {}, warn() {}, error() {} };
  new RequestQueue({ maxInFlightRequests: 1, requestTimeout: 1000, clientId: 'c', broker: 'b', logger })
    .scheduleCheckPendingRequests();
  setTimeout(() => { console.log(JSON.stringify({ loaded, warnings })); process.exit(0); }, 50);
`;

describe('kafkajs fixes', () => {
  it('are written for the kafkajs this package depends on', () => {
    expect(kafkajs.version).toBe(KAFKAJS_FIXED_VERSION);
  });

  it('replace the four modules before kafkajs loads them, and fix the negative timeout', () => {
    const modules = Object.values(REPLACED_KAFKAJS_MODULES).map((p) => kafkajs.resolve(p));
    const result = inNode<{ loaded: boolean[]; warnings: string[] }>(`
      require(${JSON.stringify(FIXES)});
      const { groupMessagesPerPartition } = require(${JSON.stringify(join(__dirname, 'group-messages-per-partition.ts'))});
      const { decodeRecordV0 } = require(${JSON.stringify(join(__dirname, 'record-v0-decoder.ts'))});
      const files = ${JSON.stringify(modules)};
      // kafkajs' own require of each file gets the replacement (the original Produce v3
      // module encodes through its topicEncoder, the replacement through encodePartition).
      const produce = String(require(files[1]));
      const loaded = [
        require(files[0]) === groupMessagesPerPartition,
        produce.includes('encodePartition') && !produce.includes('topicEncoder'),
        require.cache[files[1]].loaded,
        require(files[2]) === decodeRecordV0,
        String(require(files[3])).includes('decodeMessageSet'),
      ];
      ${SCHEDULE_CHECK}
    `);
    expect(result).toEqual({ loaded: [true, true, true, true, true], warnings: [] });
  });

  it('are needed: without them, Node 24 warns about the negative timeout', () => {
    const major = Number(process.versions.node.split('.')[0]);
    const result = inNode<{ loaded: boolean; warnings: string[] }>(
      `const loaded = false;${SCHEDULE_CHECK}`,
    );
    expect(result.warnings).toEqual(major >= 24 ? ['TimeoutNegativeWarning'] : []);
  });

  it("pile no 'connect' listeners on a refused connection's socket, however often disconnected", () => {
    const run = (fixed: boolean) =>
      inNode<{ warnings: string[]; added: number; status: string }>(`
        ${fixed ? `require(${JSON.stringify(FIXES)});` : ''}
        const Connection = require(${JSON.stringify(kafkajs.resolve('./src/network/connection'))});
        const warnings = [];
        process.on('warning', (warning) => warnings.push(warning.name));
        const log = { debug() {}, info() {}, warn() {}, error() {} };
        const logger = { namespace: () => log };
        const socketFactory = require(${JSON.stringify(kafkajs.resolve('./src/network/socketFactory'))})();
        const connection = new Connection({ host: '127.0.0.1', port: 1, logger, socketFactory, connectionTimeout: 1000, requestTimeout: 1000 });
        connection.connect().catch(async () => {
          // kafkajs disconnects a failed connection at each retry that meets it.
          const before = connection.socket.listenerCount('connect');
          for (let i = 0; i < 12; i++) await connection.disconnect();
          const added = connection.socket.listenerCount('connect') - before;
          setTimeout(() => {
            console.log(JSON.stringify({ warnings, added, status: connection.connectionStatus }));
            process.exit(0);
          }, 50);
        });
      `);
    expect(run(true)).toEqual({ warnings: [], added: 0, status: 'disconnected' });
    expect(run(false)).toEqual({
      warnings: ['MaxListenersExceededWarning'],
      added: 12,
      status: 'disconnected',
    });
  });

  it('encode a produce request byte for byte as kafkajs 2.2.4 does', async () => {
    const Long = kafkajs.load<{ fromValue(v: number): unknown }>('./src/utils/long');
    const original = kafkajs.load<(a: ProduceV3Arguments) => Encoded>(
      REPLACED_KAFKAJS_MODULES.produceV3Request,
    );
    const replacement = produceV3RequestModule(kafkajs.load);
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_700_000_009_999);
    const request: ProduceV3Arguments = {
      acks: -1,
      timeout: 30_000,
      transactionalId: 'app-0_1',
      producerId: Long.fromValue(4711),
      producerEpoch: 3,
      topicData: [
        {
          topic: 'labs.events',
          partitions: [
            {
              partition: 0,
              firstSequence: 12,
              messages: [
                {
                  key: Buffer.from('alice'),
                  value: Buffer.from('{"amount":1}'),
                  timestamp: 1_700_000_000_500,
                },
                {
                  key: null,
                  value: Buffer.from('x'),
                  timestamp: 1_700_000_000_100,
                  headers: { h: 'v' },
                },
                { key: Buffer.from('bob'), value: null },
                { key: Buffer.from('carol'), value: Buffer.from('y'), timestamp: '1700000000900' },
              ],
            },
            { partition: 3, messages: [{ key: Buffer.from('dave'), value: Buffer.from('z') }] },
          ],
        },
        { topic: 'other', partitions: [{ partition: 1, messages: [] }] },
      ],
    };
    try {
      const expected = (await original(request).encode()).buffer;
      const actual = (await (replacement(request) as unknown as Encoded).encode()).buffer;
      expect(actual.equals(expected)).toBe(true);
      expect(actual.length).toBeGreaterThan(200);
    } finally {
      now.mockRestore();
    }
  });

  it('group messages per partition as kafkajs 2.2.4 does, in linear time', () => {
    const original = kafkajs.load<typeof groupMessagesPerPartition>(
      REPLACED_KAFKAJS_MODULES.groupMessagesPerPartition,
    );
    const messages = Array.from({ length: 50 }, (_, i) => ({ id: i, partition: (i * 7) % 4 }));
    const args = {
      topic: 't',
      partitionMetadata: [{}, {}, {}, {}],
      messages,
      partitioner: ({ message }: { message: { partition: number } }) => message.partition,
    };
    expect(groupMessagesPerPartition(args)).toEqual(original(args));
    expect(groupMessagesPerPartition({ ...args, partitionMetadata: [] })).toEqual({});
    const many = Array.from({ length: 200_000 }, (_, i) => ({ id: i, partition: 0 }));
    const started = performance.now();
    const grouped = groupMessagesPerPartition({ ...args, messages: many });
    expect(grouped[0]).toHaveLength(200_000);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('leave another kafkajs version unpatched, saying so, and the kafkajs client refuses to start', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kafkajs-other-'));
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ version: '2.3.0' }));
      const cache = {};
      const outcome = installKafkajsFixes({ installation: locateKafkajs(dir), cache });
      expect(outcome).toEqual({
        version: '2.3.0',
        applied: [],
        skipped: ['kafkajs 2.3.0 is installed, the fixes are for 2.2.4'],
      });
      expect(cache).toEqual({});
      const refusal = (() => {
        try {
          kafkajsClientAdapters(SETTINGS, quiet, outcome);
        } catch (error) {
          return error;
        }
      })();
      expect(refusal).toBeInstanceOf(KafkajsUnsupportedError);
      expect(refusal).toMatchObject({
        code: 'KAFKAJS_UNSUPPORTED',
        retriable: false,
        foundVersion: '2.3.0',
        supportedVersion: '2.2.4',
        reasons: ['kafkajs 2.3.0 is installed, the fixes are for 2.2.4'],
      });
      expect((refusal as Error).message).toContain(
        "kafkaClient 'kafkajs' needs kafkajs 2.2.4 with the engine's fixes applied",
      );
      expect((refusal as Error).message).toContain('found kafkajs 2.3.0');
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('make the kafkajs client refuse to start when kafkajs cannot be located (a bundler)', () => {
    const reason =
      "kafkajs could not be located (Error: Cannot find module 'kafkajs/package.json')";
    expect(() =>
      kafkajsClientAdapters(SETTINGS, quiet, {
        version: undefined,
        applied: [],
        skipped: [reason],
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'KAFKAJS_UNSUPPORTED',
        foundVersion: undefined,
        supportedVersion: '2.2.4',
        message: expect.stringContaining('found no kafkajs the engine can locate'),
      }),
    );
    // This package's own kafkajs, fixed: nothing to refuse.
    expect(() => assertKafkajsFixed(installKafkajsFixes())).not.toThrow();
  });

  it('make the kafkajs client refuse to start in a process that loaded kafkajs first', () => {
    const group = kafkajs.resolve(REPLACED_KAFKAJS_MODULES.groupMessagesPerPartition);
    const run = (loadFirst: boolean) =>
      inNode<{ code: string; found?: string; reasons?: string[] }>(`
        ${loadFirst ? `require(${JSON.stringify(group)});` : ''}
        const { kafkajsClientAdapters } = require(${JSON.stringify(join(__dirname, 'kafkajs-client.ts'))});
        const quiet = { info() {}, warn() {}, error() {}, debug() {} };
        try {
          kafkajsClientAdapters(${JSON.stringify(SETTINGS)}, quiet);
          console.log(JSON.stringify({ code: 'started' }));
        } catch (e) {
          console.log(JSON.stringify({ code: e.code, found: e.foundVersion, reasons: e.reasons }));
        }
      `);
    expect(run(false)).toEqual({ code: 'started' });
    expect(run(true)).toEqual({
      code: 'KAFKAJS_UNSUPPORTED',
      found: '2.2.4',
      reasons: [
        'groupMessagesPerPartition: kafkajs loaded ./src/producer/groupMessagesPerPartition before @nest-streams/streams',
      ],
    });
  });

  it('pre-seed the cache, and leave a module kafkajs already loaded alone, saying so', () => {
    const group = kafkajs.resolve(REPLACED_KAFKAJS_MODULES.groupMessagesPerPartition);
    const produce = kafkajs.resolve(REPLACED_KAFKAJS_MODULES.produceV3Request);
    const loadedFirst = { exports: 'kafkajs own' } as unknown as NodeJS.Module;
    const cache: NodeJS.Dict<NodeJS.Module> = { [group]: loadedFirst };
    const outcome = installKafkajsFixes({ installation: kafkajs, cache });
    expect(outcome).toEqual({
      version: '2.2.4',
      applied: [
        'produceV3Request',
        'recordV0Decoder',
        'decodeMessages',
        'scheduleCheckPendingRequests',
        'connectionDisconnect',
        'filterAbortedMessages',
        'fetchEnds',
        'groupRejoin',
        'groupCoordinatorRefresh',
        'transactionEndRetry',
      ],
      skipped: [
        'groupMessagesPerPartition: kafkajs loaded ./src/producer/groupMessagesPerPartition before @nest-streams/streams',
      ],
    });
    expect(cache[group]).toBe(loadedFirst);
    expect(cache[produce]).toMatchObject({ filename: produce, loaded: true });
    expect(typeof cache[produce]!.exports).toBe('function');
  });
});
