import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The package's folder of page assets: `assets/dashboard` beside `src/` and `dist/` (this file
 * is three folders down in both).
 */
export const DASHBOARD_ASSETS = join(__dirname, '..', '..', '..', 'assets', 'dashboard');

/** The page's scripts, in the order they run. */
const SCRIPTS = ['dom.js', 'charts.js', 'topology.js', 'cluster.js', 'lookup.js', 'dashboard.js'];

/** The cluster page as one document, and the policy that lets it run nothing else. */
export interface DashboardDocument {
  readonly html: string;
  /** `Content-Security-Policy`: this document's own style and script only, data from its origin. */
  readonly contentSecurityPolicy: string;
  /** Bytes of the document (UTF-8). */
  readonly bytes: number;
}

/**
 * Builds the page from the package's assets (`index.html`, `dashboard.css` and the scripts):
 * style and scripts inlined, so the page is one self-contained answer that loads nothing from
 * anywhere, and a content security policy allowing exactly that style and script (by hash) and
 * requests to its own origin.
 *
 * @throws Error when an asset is missing (a broken install of the package: reinstall it).
 */
export function buildDashboardDocument(folder = DASHBOARD_ASSETS): DashboardDocument {
  const read = (name: string) => readFileSync(join(folder, name), 'utf8');
  const style = read('dashboard.css');
  const script = SCRIPTS.map((name) => `// ${name}\n${read(name)}`).join('\n');
  const template = read('index.html');
  const html = template
    .replace(/<link rel="stylesheet" href="dashboard\.css" \/>/, () => `<style>\n${style}</style>`)
    .replace(/<!-- scripts -->[\s\S]*<!-- \/scripts -->/, () => `<script>\n${script}</script>`);
  if (!html.includes('<style>') || !html.includes('<script>')) {
    throw new Error(`the cluster page's index.html in ${folder} lacks its style or script slots`);
  }
  const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
  const contentSecurityPolicy = [
    "default-src 'none'",
    `script-src ${hash(`\n${script}`)}`,
    `style-src ${hash(`\n${style}`)}`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, contentSecurityPolicy, bytes: Buffer.byteLength(html, 'utf8') };
}
