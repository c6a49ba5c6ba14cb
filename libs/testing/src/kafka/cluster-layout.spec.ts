import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CLUSTER_LAYOUT_FILE_NAME,
  clusterBrokers,
  clusterNode,
  newClusterLayout,
  nodeSettings,
  quorumVoters,
  readClusterLayout,
  writeClusterLayout,
} from './cluster-layout';

describe('cluster layout (three nodes, each broker+controller)', () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'cluster-layout-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  const ports = [41001, 41002, 41003, 41004, 41005, 41006];
  const formatted = () => {
    const layout = newClusterLayout(home, 'abc', ports);
    for (const node of layout.nodes) {
      mkdirSync(node.logDir, { recursive: true });
      writeFileSync(join(node.logDir, 'meta.properties'), `node.id=${node.nodeId}\n`);
    }
    return layout;
  };

  it('gives node i (from 1) two ports and folders of its own', () => {
    const layout = newClusterLayout(home, 'abc', ports);
    expect(layout).toEqual({
      clusterId: 'abc',
      nodes: [1, 2, 3].map((id) => ({
        nodeId: id,
        brokerPort: ports[2 * (id - 1)],
        controllerPort: ports[2 * (id - 1) + 1],
        logDir: join(home, 'data', `node-${id}`),
        logsDir: join(home, 'logs', `node-${id}`),
      })),
    });
    expect(quorumVoters(layout)).toBe('1@127.0.0.1:41002,2@127.0.0.1:41004,3@127.0.0.1:41006');
    expect(clusterBrokers(layout)).toBe('127.0.0.1:41001,127.0.0.1:41003,127.0.0.1:41005');
    expect(nodeSettings(layout, 2)).toEqual({
      nodeId: 2,
      brokerPort: 41003,
      controllerPort: 41004,
      logDir: join(home, 'data', 'node-2'),
      voters: quorumVoters(layout),
      nodes: 3,
    });
  });

  it.each([
    ['an odd number of ports', [41001, 41002, 41003]],
    ['no port', []],
    ['a port twice', [41001, 41002, 41001, 41004]],
  ])('refuses %s', (_what, given) => {
    expect(() => newClusterLayout(home, 'abc', given)).toThrow(RangeError);
  });

  it('names the node ids there are for an unknown one', () => {
    expect(() => clusterNode(newClusterLayout(home, 'abc', ports), 4)).toThrow(
      'no node 4 in this cluster: its nodes are 1, 2, 3',
    );
  });

  it('reads back what a formatted start wrote', () => {
    const layout = formatted();
    writeClusterLayout(home, layout);
    expect(readClusterLayout(home)).toEqual(layout);
  });

  it('is undefined without the file, or when a node lost its storage', () => {
    expect(readClusterLayout(home)).toBeUndefined();
    const layout = formatted();
    writeClusterLayout(home, layout);
    rmSync(layout.nodes[2].logDir, { recursive: true });
    expect(readClusterLayout(home)).toBeUndefined();
  });

  it.each([
    ['not JSON', () => '{oops'],
    ['no cluster id', (text: string) => text.replace('"abc"', '""')],
    ['a port out of range', (text: string) => text.replace('41003', '70000')],
    ['a port twice', (text: string) => text.replace('41003', '41001')],
    ['nodes out of order', (text: string) => text.replace('"nodeId": 2', '"nodeId": 5')],
  ])('is undefined for %s', (_what, spoil) => {
    const layout = formatted();
    writeClusterLayout(home, layout);
    const file = join(home, CLUSTER_LAYOUT_FILE_NAME);
    const good = JSON.stringify(layout, null, 2);
    writeFileSync(file, spoil(good));
    expect(readClusterLayout(home)).toBeUndefined();
    writeFileSync(file, good);
    expect(readClusterLayout(home)).toEqual(layout);
  });
});
