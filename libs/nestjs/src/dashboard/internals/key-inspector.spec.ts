import { HostInfo, KeyQueryMetadata, StateStoreMigratedError } from '@nest-streams/streams';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import type {
  InteractiveQueryService,
  KeyQueryOptions,
} from '../../queries/interactive-query.service';
import type { KeyOwnerLocator } from '../../ownership/internals/key-owner.locator';
import { OwnerUnreachableError } from '../../errors/owner-unreachable.error';
import { displayValue, KeyInspector } from './key-inspector';

const A = '127.0.0.1:8001';
const B = '127.0.0.1:8002';
const C = '127.0.0.1:8003';

describe("the page's key look-up", () => {
  let metadata: KeyQueryMetadata;
  let reads: (string | undefined)[];
  let refreshed: number;
  let inspector: KeyInspector;

  beforeEach(() => {
    metadata = new KeyQueryMetadata(HostInfo.parse(B), [HostInfo.parse(A), HostInfo.parse(C)], 4);
    reads = [];
    refreshed = 0;
    const settings = new StreamsModuleSettings({
      streams: {
        applicationId: 'inspect-spec',
        bootstrapServers: ['127.0.0.1:1'],
        applicationServer: A,
      },
      security: { clusterSecret: 'dashboard-spec-cluster-secret' },
    });
    const locator = {
      locate: () => ({ metadata, self: HostInfo.parse(A), clusterHosts: [] }),
      refreshLags: async () => {
        refreshed++;
      },
    } as unknown as KeyOwnerLocator;
    const queries = {
      lookup: async (_store: string, _key: string, options: KeyQueryOptions<string>) => {
        reads.push(options.copyAt);
        if (options.copyAt === B)
          return { value: { count: 3, sum: 7.5 }, servedBy: B, partition: 4, active: true, lag: 0 };
        if (options.copyAt === A)
          return { value: { count: 2, sum: 5 }, servedBy: A, partition: 4, active: false, lag: 1 };
        throw new OwnerUnreachableError(C, 'connection refused');
      },
    } as unknown as InteractiveQueryService;
    inspector = new KeyInspector(settings, locator, queries);
  });

  it("reads each copy of the key's partition, the standbys' answers marked stale with their lag", async () => {
    await expect(inspector.inspect('stats-store', 'alice')).resolves.toEqual({
      store: 'stats-store',
      key: 'alice',
      partition: 4,
      activeHost: B,
      standbyHosts: [A, C],
      copies: [
        {
          host: B,
          role: 'active',
          answer: {
            value: '{"count":3,"sum":7.5}',
            found: true,
            stale: false,
            lag: 0,
            servedBy: B,
          },
        },
        {
          host: A,
          role: 'standby',
          answer: { value: '{"count":2,"sum":5}', found: true, stale: true, lag: 1, servedBy: A },
        },
        {
          host: C,
          role: 'standby',
          error: {
            code: 'OWNER_UNREACHABLE',
            retriable: true,
            message: expect.stringContaining('connection refused'),
          },
        },
      ],
    });
    expect(reads).toEqual([B, A, C]);
    // This instance holds a standby copy: its lag is made current before it answers.
    expect(refreshed).toBe(1);
  });

  it('says when a copy has no value, and when no instance owns the key', async () => {
    metadata = new KeyQueryMetadata(HostInfo.parse(C), [], 1);
    const inspectorOf = (lookup: () => Promise<unknown>) =>
      new KeyInspector(
        new StreamsModuleSettings({
          streams: { applicationId: 'x', bootstrapServers: ['127.0.0.1:1'], applicationServer: A },
          security: { clusterSecret: 'dashboard-spec-cluster-secret' },
        }),
        {
          locate: () => ({ metadata, self: HostInfo.parse(A), clusterHosts: [] }),
          refreshLags: async () => undefined,
        } as unknown as KeyOwnerLocator,
        { lookup } as unknown as InteractiveQueryService,
      );
    const none = inspectorOf(async () => ({
      value: undefined,
      servedBy: C,
      partition: 1,
      active: true,
      lag: 0,
    }));
    await expect(none.inspect('stats-store', 'nobody')).resolves.toMatchObject({
      copies: [
        { host: C, role: 'active', answer: { found: false, stale: false, lag: 0, servedBy: C } },
      ],
    });
    const moved = inspectorOf(() => Promise.reject(new StateStoreMigratedError('moved')));
    await expect(moved.inspect('stats-store', 'x')).resolves.toMatchObject({
      copies: [{ host: C, error: { code: 'STORE_MIGRATED', retriable: true, message: 'moved' } }],
    });
    metadata = KeyQueryMetadata.NOT_AVAILABLE;
    await expect(none.inspect('stats-store', 'x')).resolves.toEqual({
      store: 'stats-store',
      key: 'x',
      partition: null,
      activeHost: null,
      standbyHosts: [],
      copies: [],
    });
  });

  it('reads a key of a global store here, where it lives whole: no partition', async () => {
    // The key lives here (A); A's copy answers as the fake's lookup says.
    metadata = new KeyQueryMetadata(HostInfo.parse(A), [], KeyQueryMetadata.UNKNOWN_PARTITION);
    await expect(inspector.inspect('regions-global', 'r1')).resolves.toEqual({
      store: 'regions-global',
      key: 'r1',
      partition: null,
      activeHost: A,
      standbyHosts: [],
      copies: [
        {
          host: A,
          role: 'active',
          answer: {
            value: '{"count":2,"sum":5}',
            found: true,
            stale: true,
            lag: 1,
            servedBy: A,
          },
        },
      ],
    });
    expect(reads).toEqual([A]);
  });

  it('shows values as JSON text, buffers and big integers included', () => {
    expect(displayValue({ n: 10n, raw: Buffer.from([1, 2]) })).toBe(
      '{"n":"10","raw":"base64:AQI="}',
    );
    expect(displayValue('text')).toBe('"text"');
    expect(displayValue(0)).toBe('0');
  });
});
