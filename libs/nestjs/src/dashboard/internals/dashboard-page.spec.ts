import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDashboardDocument, DASHBOARD_ASSETS } from './dashboard-page';

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('the cluster page document', () => {
  it('inlines its style and every script, and its policy allows exactly those', () => {
    const document = buildDashboardDocument();
    const style = /<style>([\s\S]*?)<\/style>/.exec(document.html)?.[1];
    const scripts = [...document.html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(style).toBeDefined();
    expect(scripts).toHaveLength(1);
    for (const name of readdirSync(DASHBOARD_ASSETS).filter((f) => f.endsWith('.js'))) {
      expect(scripts[0]).toContain(`// ${name}\n`);
    }
    expect(document.contentSecurityPolicy).toBe(
      [
        "default-src 'none'",
        `script-src ${sha(scripts[0])}`,
        `style-src ${sha(style!)}`,
        "connect-src 'self'",
        "img-src 'self' data:",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ].join('; '),
    );
    // Self-contained: nothing loaded from a file or another host (the SVG namespace is a name).
    expect(document.html).not.toMatch(
      /<script[^>]*\ssrc=|<link[^>]*rel="stylesheet"|https?:\/\/(?!www\.w3\.org\/2000\/svg')/,
    );
    expect(document.bytes).toBe(Buffer.byteLength(document.html));
    // Small: one answer of less than 48 KiB.
    expect(document.bytes).toBeLessThan(48 * 1024);
  });

  it('fails clearly when an asset is missing or the page lacks its slots', () => {
    const folder = mkdtempSync(join(tmpdir(), 'dashboard-assets-'));
    try {
      cpSync(DASHBOARD_ASSETS, folder, { recursive: true });
      writeFileSync(join(folder, 'index.html'), '<html><body>no slots</body></html>');
      expect(() => buildDashboardDocument(folder)).toThrow(
        `the cluster page's index.html in ${folder} lacks its style or script slots`,
      );
      rmSync(join(folder, 'cluster.js'));
      expect(() => buildDashboardDocument(folder)).toThrow(/ENOENT.*cluster\.js/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
