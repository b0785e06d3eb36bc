// Loads Tally's status page in Debian's headless Chromium and proves that hydration works: the
// "Check again" button re-fetches the status through a server function, which only happens with
// the WASM app running. Then switches the theme to dark and back. Saves a screenshot.
//
//   node tests/browser/hydration.mjs URL SCREENSHOT.png
import { finish, launch, recordProblems } from './chromium.mjs';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

const [url, screenshot] = process.argv.slice(2);
if (!url || !screenshot) {
  console.error('usage: node hydration.mjs URL SCREENSHOT.png');
  process.exit(2);
}

const browser = await launch();
const problems = [];
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  recordProblems(page, problems);

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

  // The theme switch: "Dark" comes back to this page dark (whatever the system says), "Auto"
  // follows the system (light here) again.
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await Promise.all([page.waitForNavigation(), page.click('.theme-switch button[value="dark"]')]);
  if ((await page.getAttribute('html', 'data-theme')) !== 'dark') throw new Error('no dark theme after "Dark"');
  if ((await background()) !== 'rgb(21, 23, 26)') throw new Error(`dark theme background is ${await background()}`);
  await Promise.all([page.waitForNavigation(), page.click('.theme-switch button[value="system"]')]);
  if ((await page.getAttribute('html', 'data-theme')) !== null) throw new Error('"Auto" kept a theme');
  if ((await background()) !== 'rgb(251, 251, 250)') throw new Error(`light background is ${await background()}`);

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
finish(problems);
