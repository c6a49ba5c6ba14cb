import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it where missing). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * A headless Chromium with a fresh profile, driven by playwright-core, that records what a
 * person would not see but a test should: script errors, and every request the page makes.
 */
export class HeadlessChromium {
  readonly errors: string[] = [];
  readonly requests: string[] = [];

  private constructor(
    private readonly context: BrowserContext,
    private readonly profile: string,
  ) {}

  /**
   * @throws Error naming the missing browser and how to install it.
   */
  static async launch(): Promise<HeadlessChromium> {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `no Chromium at ${CHROMIUM}: install Debian's package (apt-get install chromium, as .ci/run does) or set CHROMIUM_PATH`,
      );
    }
    const profile = mkdtempSync(join(tmpdir(), 'nest-streams-chromium-'));
    try {
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: FLAGS,
        viewport: { width: 1400, height: 900 },
      });
      return new HeadlessChromium(context, profile);
    } catch (error) {
      rmSync(profile, { recursive: true, force: true });
      throw error;
    }
  }

  /** Opens `url` in a new tab. */
  async open(url: string): Promise<Page> {
    const page = await this.context.newPage();
    page.on('pageerror', (error) => this.errors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') this.errors.push(message.text());
    });
    page.on('request', (request) => this.requests.push(request.url()));
    await page.goto(url);
    return page;
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    rmSync(this.profile, { recursive: true, force: true });
  }
}
