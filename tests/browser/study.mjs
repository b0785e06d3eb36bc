// Takes part in a user study in Debian's headless Chromium, as a participant would: starts an
// anonymous session, answers every task (judgements, then preferences), reads the completion
// code; then, as the researcher, opens the summary tables and downloads the CSV export.
// Saves screenshots of a judgement, a preference, the completion and the summary.
//
//   node tests/browser/study.mjs BASE_URL SCREENSHOT_DIR ADMIN_TOKEN
// Prints one JSON line: {"session":…, "completion_code":…, "choices":[…], "csv":…, "counts":…}.
import { finish, launch, recordProblems } from './chromium.mjs';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [base, shots, token] = process.argv.slice(2);
if (!base || !shots || !token) {
  console.error('usage: node study.mjs BASE_URL SCREENSHOT_DIR ADMIN_TOKEN');
  process.exit(2);
}
mkdirSync(shots, { recursive: true });

const browser = await launch();
const problems = [];
const result = { choices: [] };
const hydrated = (page) => page.waitForSelector('main[data-hydrated="true"]', { timeout: 60000 });
try {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  recordProblems(page, problems);

  await page.goto(base + '/study', { waitUntil: 'load' });
  await hydrated(page);
  await Promise.all([
    page.waitForURL(/\/study\/s\/[0-9a-f-]{36}$/, { timeout: 60000 }),
    page.click('#start-study'),
  ]);
  result.session = page.url().split('/').pop();

  // Answer tasks until the completion code shows; the page moves on in place.
  const shot = {};
  for (let step = 0; step < 20; step += 1) {
    await page.waitForSelector('#completion-code, .study-choices', { timeout: 120000 });
    if (await page.$('#completion-code')) break;
    await hydrated(page);
    const answered = Number(await page.getAttribute('#study-progress', 'value'));
    const judgement = (await page.$('#choice-correct')) !== null;
    const modes = await page.$$eval('.presentation', (els) => els.map((e) => e.dataset.mode));
    if (modes.length !== (judgement ? 1 : 2)) throw new Error(`task ${answered} shows ${modes.length} presentations`);
    for (const [i, mode] of modes.entries()) {
      const parts = await page.$$eval(`.presentation:nth-of-type(${i + 1}) .study-part`, (els) => els.map((e) => e.dataset.part));
      const expected = { count: [], cnps: ['cnps'], instances: ['instances'], snippets: ['snippets'], all: ['cnps', 'instances', 'snippets'] }[mode];
      if (JSON.stringify(parts) !== JSON.stringify(expected)) {
        throw new Error(`the ${mode} presentation shows ${JSON.stringify(parts)}`);
      }
    }
    // The choices sit near the top, above the evidence; after a choice, focus is on the next
    // task's question, not on the page's body.
    const choicesTop = await page.$eval('.study-choices', (el) => el.getBoundingClientRect().top + window.scrollY);
    if (choicesTop > 600) throw new Error(`the choices start ${choicesTop} px down the page`);
    if (answered > 0) {
      await page.waitForFunction(() => document.activeElement?.classList.contains('study-question'), null, { timeout: 10000 })
        .catch(() => { throw new Error(`focus after a choice is on ${page.evaluate(() => document.activeElement?.tagName)}`); });
    }
    const kind = judgement ? 'judgement' : 'preference';
    if (!shot[kind]) {
      await page.screenshot({ path: join(shots, `study-${kind}.png`), fullPage: true });
      shot[kind] = true;
    }
    const choice = judgement ? (answered % 2 === 0 ? 'correct' : 'wrong') : (answered % 2 === 0 ? 'left' : 'same');
    result.choices.push({ index: answered, kind, modes, choice });
    await page.click(`#choice-${choice}`);
    await page.waitForFunction(
      (before) => document.querySelector('#completion-code')
        || Number(document.querySelector('#study-progress')?.getAttribute('value')) > before,
      answered, { timeout: 120000 },
    );
  }
  result.completion_code = (await page.textContent('#completion-code')).trim();
  if (!(await page.$('#copy-completion-code'))) throw new Error('no copy button for the completion code');
  await page.screenshot({ path: join(shots, 'study-done.png'), fullPage: true });

  // The researcher's view: summary tables and the CSV export.
  await page.goto(`${base}/study/summary?token=${encodeURIComponent(token)}`, { waitUntil: 'load' });
  await page.waitForSelector('#judgement-table', { timeout: 60000 });
  result.counts = (await page.textContent('#study-counts')).trim();
  result.judgement_rows = await page.$$eval('#judgement-table tbody tr', (rows) => rows.map((r) => [...r.children].map((c) => c.textContent.trim())));
  result.preference_rows = await page.$$eval('#preference-table tbody tr', (rows) => rows.map((r) => [...r.children].map((c) => c.textContent.trim())));
  await page.screenshot({ path: join(shots, 'study-summary.png'), fullPage: true });
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  result.csv = readFileSync(await download.path(), 'utf8');
} catch (e) {
  problems.push(String(e && e.stack || e));
} finally {
  await browser.close();
}
finish(problems, result);
