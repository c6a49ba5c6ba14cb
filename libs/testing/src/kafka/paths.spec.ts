import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from './paths';

describe('projectRoot', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'kafka-paths-spec-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is the nearest directory up that holds a lock file', () => {
    const app = join(dir, 'app');
    mkdirSync(join(app, 'src', 'deep'), { recursive: true });
    writeFileSync(join(app, 'package-lock.json'), '{}');
    expect(projectRoot(join(app, 'src', 'deep'))).toBe(app);
    expect(projectRoot(app)).toBe(app);
    writeFileSync(join(app, 'src', 'pnpm-lock.yaml'), '');
    expect(projectRoot(join(app, 'src', 'deep'))).toBe(join(app, 'src'));
  });

  it('is the directory itself when no directory up holds one', () => {
    // tmpdir() holds no lock file (nor do its parents on a test machine).
    expect(projectRoot(dir)).toBe(dir);
  });
});
