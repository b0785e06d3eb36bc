// Runs axe-core (WCAG 2.x A and AA rules) on every kind of page Tally serves, in Debian's
// headless Chromium, at desktop and phone width in the light theme and at desktop width in the
// dark one: the home page, a count answer, a value answer,
// a quantity search, the history, the status page, the study's invitation and summary, and the
// corpus pages (logged out and in).
// Fails on any violation, listing each with the elements it found.
//
//   node tests/browser/accessibility.mjs BASE_URL ADMIN_TOKEN SCREENSHOT_DIR
// Saves a full-page screenshot of every page in every view (page-<name>-<width>-<scheme>.png).
// Prints one JSON line: {"pages": [{"path":…, "width":…, "rules_passed":…}], …}.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { finish, launch, recordProblems } from './chromium.mjs';

const [base, token, shots] = process.argv.slice(2);
if (!base || !token || !shots) {
  console.error('usage: node accessibility.mjs BASE_URL ADMIN_TOKEN SCREENSHOT_DIR');
  process.exit(2);
}
mkdirSync(shots, { recursive: true });
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const PAGES = [
  ['home', '/'],
  ['count', '/?q=how+many+songs+did+paul+mccartney+write+for+the+beatles&mode=count'],
  ['count-unknown-subject', '/?q=how+many+bridges+cross+the+river+zorblax&mode=count'],
  ['value', '/?q=capacity+of+the+Rose+Bowl&mode=value'],
  ['value-no-answer', '/?q=how+heavy+is+a+zorblax&mode=value'],
  ['search', '/?q=stadiums+with+a+capacity+of+more+than+80000&mode=quantity'],
  ['history', '/history'],
  ['status', '/status'],
  ['study', '/study'],
  ['admin-login', '/admin'],
  // The researcher's and the host's pages, with their tables.
  ['study-summary', `/study/summary?token=${token}`],
  ['admin', `/admin?token=${token}`],
];
const VIEWS = [[1280, 'light'], [390, 'light'], [1280, 'dark']];

const browser = await launch();
const problems = [];
const result = { pages: [] };
try {
  // axe is evaluated through the DevTools protocol, which the pages' strict CSP does not stop.
  const context = await browser.newContext();
  for (const [width, scheme] of VIEWS) {
    const page = await context.newPage({ viewport: { width, height: 900 } });
    await page.setViewportSize({ width, height: 900 });
    // The theme follows the system unless chosen: the dark one through the media query.
    await page.emulateMedia({ colorScheme: scheme });
    recordProblems(page, problems);
    for (const [name, path] of PAGES) {
      await page.goto(base + path, { waitUntil: 'load', timeout: 180000 });
      await page.waitForSelector('main[data-hydrated="true"]', { timeout: 60000 });
      await page.evaluate(axeSource);
      const report = await page.evaluate(async () => {
        const r = await window.axe.run(document, {
          runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
        });
        return {
          passes: r.passes.length,
          violations: r.violations.map((v) => ({
            id: v.id,
            impact: v.impact,
            help: v.help,
            nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
          })),
        };
      });
      for (const v of report.violations) {
        problems.push(`${path} at ${width}px, ${scheme}: ${v.id} (${v.impact}): ${v.help} — ${v.nodes.join(', ')}`);
      }
      await page.screenshot({ path: join(shots, `page-${name}-${width}-${scheme}.png`), fullPage: true });
      result.pages.push({ path, width, scheme, rules_passed: report.passes, violations: report.violations.length });
    }
    await page.close();
  }
} catch (e) {
  problems.push(String(e && e.stack || e));
} finally {
  await browser.close();
}
finish(problems, result);
