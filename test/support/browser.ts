import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium, which .ci/run installs; a browser is never downloaded. */
export const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** `it` when Chromium is installed; otherwise a skipped test whose title says why. */
export function browserIt(title: string, fn: () => Promise<void>, timeout?: number): void {
  if (existsSync(CHROMIUM)) it(title, fn, timeout);
  else it.skip(`${title} [skipped: ${CHROMIUM} is not installed; apt-get install chromium]`, fn);
}

export interface BrowserPage {
  page: Page;
  /** Every URL the page asked for. */
  requested: string[];
  /** Console errors (a Content-Security-Policy violation is one) and uncaught exceptions. */
  problems: string[];
}

/**
 * A headless page that may reach `origin` (or these origins) only: anything else is recorded and refused, so a page
 * cannot work by loading from elsewhere.
 */
export async function withPage(origin: string | string[], work: (p: BrowserPage) => Promise<void>): Promise<void> {
  const origins = typeof origin === 'string' ? [origin] : origin;
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
    const page = await browser.newPage();
    const requested: string[] = [];
    const problems: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      requested.push(url);
      return origins.some((o) => url.startsWith(o + '/')) ? route.continue() : route.abort();
    });
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await work({ page, requested, problems });
  } finally {
    await browser?.close();
  }
}
