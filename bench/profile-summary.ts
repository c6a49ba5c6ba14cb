/**
 * Summarizes a V8 CPU profile (`node --cpu-prof`, e.g. from `npm run bench -- aggregate
 * --systems ours --profile DIR`): time per processing phase (each sample goes to the first
 * phase of {@link PHASES} found on its stack), self time per area (kafkajs, each engine
 * folder, serdes, RocksDB binding, GC, Node internals), and self and inclusive time per
 * function.
 *
 *   node --import tsx bench/profile-summary.ts FILE.cpuprofile [--top N]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}
interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The area a frame's source belongs to. */
export function areaOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (url === '') {
    if (functionName.startsWith('(')) return functionName;
    return `native: ${functionName}`;
  }
  if (url.includes('/node_modules/kafkajs/')) {
    const m = /node_modules\/kafkajs\/src\/([^/]+)(?:\/([^/]+))?/.exec(url);
    return `kafkajs/${m?.[1] ?? '?'}${m?.[2] && !m[2].endsWith('.js') ? `/${m[2]}` : ''}`;
  }
  if (url.includes('/node_modules/@nxtedition/rocksdb/')) return '@nxtedition/rocksdb (JS side)';
  const lib = /libs\/streams\/src\/(.+)\/[^/]+$/.exec(url);
  if (lib) return `engine: ${lib[1]}`;
  if (url.includes('/bench/')) return 'bench worker';
  if (url.startsWith('node:')) return 'node internals';
  if (url.includes('/node_modules/')) {
    return `node_modules/${/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? '?'}`;
  }
  return 'other';
}

/**
 * Phases of nest-streams' processing loop, by a function on the sample's stack; the first
 * phase that matches wins, so the order matters (evictions inside a store read count as
 * evictions).
 */
const PHASES: readonly (readonly [string, (frame: string) => boolean])[] = [
  ['garbage collection', (f) => f === '(garbage collector)'],
  [
    'commit: cache flush -> RocksDB write + changelog send',
    (f) => f.startsWith('flushState libs/streams/src/runtime/internals/task/stream-task'),
  ],
  [
    'commit: producer flush, checkpoint, offsets',
    (f) => f.includes(' libs/streams/src/runtime/internals/commit/commit-protocol'),
  ],
  [
    'kafkajs producer: encode and send changelog records',
    (f) => f.includes('kafkajs/src/producer/') || f.includes('requests/produce/'),
  ],
  [
    'kafkajs consumer: fetch and decode',
    (f) => f.includes('requests/fetch/') || f.includes('kafkajs/src/consumer/'),
  ],
  [
    'task: deserialize input records',
    (f) => f.startsWith('deserialize libs/streams/src/runtime/internals/task/stream-task'),
  ],
  ['task: prefetch keys into the cache', (f) => f.startsWith('prefetch libs/streams/src/kstream/')],
  [
    'cache eviction: flush dirty -> RocksDB write + changelog send',
    (f) => f.startsWith('evictOne libs/streams/src/state/internals/named-cache'),
  ],
  [
    'store get: cache lookup or read, value deserialize',
    (f) => f.startsWith('get libs/streams/src/state/internals/metered/metered-'),
  ],
  [
    'store put: value serialize, cache write',
    (f) => f.startsWith('put libs/streams/src/state/internals/metered/metered-'),
  ],
  ['processor code', (f) => f.startsWith('process libs/streams/src/kstream/')],
  [
    'task: processing loop',
    (f) => f.startsWith('process libs/streams/src/runtime/internals/task/stream-task'),
  ],
  [
    'stream thread: batch handling',
    (f) => f.includes('libs/streams/src/runtime/internals/thread/stream-thread'),
  ],
  [
    'bench worker, tsx (start-up, store dump: not timed)',
    (f) => /bench\/|node_modules\/(tsx|esbuild)/.test(f),
  ],
];

function keyOf(frame: CallFrame): string {
  const file = frame.url.replace(/^.*\/(node_modules\/|libs\/|bench\/)/, '$1');
  return `${frame.functionName || '(anonymous)'} ${file ? `${file}:${frame.lineNumber + 1}` : ''}`.trim();
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string' } },
  });
  if (positionals.length !== 1)
    throw new Error('usage: profile-summary.ts FILE.cpuprofile [--top N]');
  const top = Number(values.top ?? 30);
  const profile = JSON.parse(readFileSync(positionals[0], 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i + 1] ?? 0;
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  });
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const idle = [...selfUs].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)');
  const idleUs = idle.reduce((a, [, us]) => a + us, 0);
  const busy = total - idleUs;

  const self = new Map<string, number>();
  const areas = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    self.set(keyOf(frame), (self.get(keyOf(frame)) ?? 0) + us);
    areas.set(areaOf(frame), (areas.get(areaOf(frame)) ?? 0) + us);
  }

  // Phases: each sample goes to the first phase found on its stack.
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const phases = new Map<string, number>();
  const stackOf = (id: number): string[] => {
    const stack: string[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      stack.push(keyOf(byId.get(cur)!.callFrame));
    }
    return stack;
  };
  for (const [id, us] of selfUs) {
    if (byId.get(id)!.callFrame.functionName === '(idle)') continue;
    const stack = stackOf(id);
    const phase = PHASES.find(([, test]) => stack.some(test))?.[0] ?? 'other';
    phases.set(phase, (phases.get(phase) ?? 0) + us);
  }

  // Inclusive time: each node's subtree, counted once per function on the stack.
  const inclusive = new Map<string, number>();
  const onStack = new Map<string, number>();
  const root = profile.nodes[0];
  const subtree = new Map<number, number>();
  const sum = (node: ProfileNode): number => {
    let t = selfUs.get(node.id) ?? 0;
    for (const child of node.children ?? []) t += sum(byId.get(child)!);
    subtree.set(node.id, t);
    return t;
  };
  sum(root);
  const walk = (node: ProfileNode): void => {
    const key = keyOf(node.callFrame);
    const depth = onStack.get(key) ?? 0;
    if (depth === 0) inclusive.set(key, (inclusive.get(key) ?? 0) + subtree.get(node.id)!);
    onStack.set(key, depth + 1);
    for (const child of node.children ?? []) walk(byId.get(child)!);
    onStack.set(key, depth);
  };
  walk(root);

  const pct = (us: number): string => `${((us / busy) * 100).toFixed(1).padStart(5)}%`;
  const print = (title: string, entries: Map<string, number>, n: number): void => {
    process.stdout.write(`\n${title}\n`);
    for (const [key, us] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, n)) {
      if (key.startsWith('(idle)') || key.startsWith('(root)')) continue;
      process.stdout.write(`${pct(us)}  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}\n`);
    }
  };
  process.stdout.write(
    `profile: ${(total / 1e6).toFixed(1)} s sampled, ${(idleUs / 1e6).toFixed(1)} s idle, ${(busy / 1e6).toFixed(1)} s busy (percentages are of busy time)\n`,
  );
  print('time by phase (first match on the stack)', phases, PHASES.length + 1);
  print('self time by area', areas, 40);
  print(`self time by function (top ${top})`, self, top);
  print(`inclusive time by function (top ${top})`, inclusive, top);
}

main();
