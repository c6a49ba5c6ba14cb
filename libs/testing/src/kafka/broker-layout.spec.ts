import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  LAYOUT_FILE_NAME,
  newClusterId,
  reusableBrokerLayout,
  writeBrokerLayout,
} from './broker-layout';
import { createServer } from 'node:net';
import { portIsFree } from './free-port';

describe('broker layout (restart on the same ports with the same data)', () => {
  let home: string;
  let logDir: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'broker-layout-'));
    logDir = join(home, 'data', 'logs');
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  const layout = () => ({ brokerPort: 41001, controllerPort: 41002, logDir, clusterId: 'abc' });

  it('reads back what a formatted start wrote', () => {
    mkdirSync(logDir, { recursive: true });
    writeFileSync(join(logDir, 'meta.properties'), 'node.id=1\n');
    writeBrokerLayout(home, layout());
    expect(reusableBrokerLayout(home)).toEqual(layout());
  });

  it('is undefined without a layout file', () => {
    expect(reusableBrokerLayout(home)).toBeUndefined();
  });

  it('is undefined when the storage was removed (a stop without keepData)', () => {
    writeBrokerLayout(home, layout());
    expect(reusableBrokerLayout(home)).toBeUndefined();
  });

  it.each([
    ['not JSON', '{oops'],
    ['a port out of range', JSON.stringify({ ...layoutLiteral(), brokerPort: 70_000 })],
    ['equal ports', JSON.stringify({ ...layoutLiteral(), controllerPort: 41001 })],
    ['no cluster id', JSON.stringify({ ...layoutLiteral(), clusterId: '' })],
  ])('is undefined for %s', (_what, text) => {
    mkdirSync(logDir, { recursive: true });
    writeFileSync(join(logDir, 'meta.properties'), 'node.id=1\n');
    writeFileSync(join(home, LAYOUT_FILE_NAME), text.replace('LOGDIR', logDir));
    expect(reusableBrokerLayout(home)).toBeUndefined();
    // The same file with the valid literal is accepted: only the defect makes it unusable.
    writeFileSync(
      join(home, LAYOUT_FILE_NAME),
      JSON.stringify(layoutLiteral()).replace('LOGDIR', logDir),
    );
    expect(reusableBrokerLayout(home)).toEqual(layout());
  });

  function layoutLiteral() {
    return { brokerPort: 41001, controllerPort: 41002, logDir: 'LOGDIR', clusterId: 'abc' };
  }
});

describe('portIsFree', () => {
  it('is false while a server listens on the port and true after it closed', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    expect(await portIsFree(port)).toBe(false);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(await portIsFree(port)).toBe(true);
  });
});

describe('newClusterId', () => {
  it('draws again when the id would start with "-" (read as an option by kafka-storage)', () => {
    // 0xf8 encodes to '-' as the first base64url character.
    const draws = [Buffer.alloc(16, 0xf8), Buffer.alloc(16, 0xf8), Buffer.alloc(16, 0x01)];
    let calls = 0;
    const id = newClusterId(() => draws[calls++]);
    expect(calls).toBe(3);
    expect(id).toBe(Buffer.alloc(16, 0x01).toString('base64url'));
  });

  it('is 22 base64url characters, never starting with "-"', () => {
    for (let i = 0; i < 2_000; i += 1)
      expect(newClusterId()).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
  });
});
