// Loads Tally's home page in Debian's headless Chromium and proves that hydration works: the
// "Check again" button re-fetches the status through a server function, which only happens with
// the WASM app running. Saves a screenshot.
//
//   node tests/browser/hydration.mjs URL SCREENSHOT.png
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

const [url, screenshot] = process.argv.slice(2);
if (!url || !screenshot) {
  console.error('usage: node hydration.mjs URL SCREENSHOT.png');
  process.exit(2);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ],
});
const problems = [];
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  page.on('pageerror', (e) => problems.push(`page error: ${e}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()} for ${r.url()}`); });

  await page.goto(url, { waitUntil: 'load' });
  const title = await page.title();
  const encoder = (await page.textContent('#status-encoder')) ?? '';
  if (!encoder.includes('all-MiniLM-L6-v2')) throw new Error(`status panel shows no encoder: ${encoder}`);

  // Hydration flips data-hydrated on the status panel (an effect, which runs only in the browser).
  await page.waitForSelector('.status-panel[data-hydrated="true"]', { timeout: 30000 });
  const before = await page.textContent('#status-checked-at');
  await page.click('#recheck');
  await page.waitForFunction(
    () => document.querySelector('#recheck-count')?.textContent.includes('Re-checked 1 time.'),
    null, { timeout: 15000 });
  await page.waitForFunction(
    (b) => { const t = document.querySelector('#status-checked-at')?.textContent; return t && t !== b; },
    before, { timeout: 15000 });
  const after = await page.textContent('#status-checked-at');

  mkdirSync(dirname(screenshot), { recursive: true });
  await page.screenshot({ path: screenshot, fullPage: true });
  console.log(`title: ${title}`);
  console.log(`status re-checked in the browser: ${before} -> ${after}`);
  console.log(`screenshot: ${screenshot}`);
} catch (e) {
  problems.push(String(e));
} finally {
  await browser.close();
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
