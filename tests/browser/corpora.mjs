// Uploads documents on the corpus pages in Debian's headless Chromium, as an admin would: logs
// in with the page's form (a cookie, no token in any URL), fills the upload form with a large text file and an HTML page, follows the ingestion's progress on the job's
// page (server-sent events update it in place), asks a count question about the new corpus, and
// deletes it again. Saves screenshots of the job page and the corpus list.
//
//   node tests/browser/corpora.mjs BASE_URL SCREENSHOT_DIR ADMIN_TOKEN
// Prints one JSON line: {"states":[…], "progress":[…], "count":…, "corpus_listed":…, "deleted":…,
// "token_in_url":…}.
import { finish, launch, recordProblems } from './chromium.mjs';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const [base, shots, token] = process.argv.slice(2);
if (!base || !shots || !token) {
  console.error('usage: node corpora.mjs BASE_URL SCREENSHOT_DIR ADMIN_TOKEN');
  process.exit(2);
}
mkdirSync(shots, { recursive: true });

// Large enough that indexing takes seconds, so the page sees it running.
const paragraphs = [];
for (let n = 0; n < 12000; n += 1) {
  paragraphs.push(`Branch ${n} of the Hartwell library opened in ${1900 + (n % 120)}. `
    + `The Hartwell library has 14 reading rooms. Branch ${n} lends ${200 + n} books a week to ${30 + (n % 50)} schools.`);
}
const TEXT = paragraphs.join('\n\n');
const HTML = '<html><head><title>Hartwell guide</title></head><body><p>All 14 reading rooms of the Hartwell library were renovated in 2019.</p></body></html>';

const browser = await launch();
const problems = [];
const result = {};
const hydrated = (page) => page.waitForSelector('main[data-hydrated="true"]', { timeout: 60000 });
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  recordProblems(page, problems);

  // Logged in once with the form: a cookie carries the login, no URL carries the token.
  await page.goto(`${base}/admin`, { waitUntil: 'load' });
  await hydrated(page);
  await page.fill('#login-form input[name=token]', token);
  await Promise.all([
    page.waitForURL(`${base}/admin`, { timeout: 60000 }),
    page.click('#login-form button[type=submit]'),
  ]);
  await hydrated(page);
  await page.waitForSelector('#corpus-table');
  result.token_in_url = page.url().includes('token=');
  await page.fill('input[name=corpus]', 'hartwell');
  await page.setInputFiles('input[name=file]', [
    { name: 'branches.txt', mimeType: 'text/plain', buffer: Buffer.from(TEXT) },
    { name: 'guide.html', mimeType: 'text/html', buffer: Buffer.from(HTML) },
  ]);
  await Promise.all([
    page.waitForURL(/\/admin\/jobs\/[0-9a-f-]{36}$/, { timeout: 60000 }),
    page.click('#upload-form button[type=submit]'),
  ]);
  // Record every state and progress value the page shows, without reloading it.
  await page.evaluate(() => {
    window.seen = { states: [], progress: [] };
    const record = () => {
      const state = document.querySelector('#job-state')?.dataset.state;
      const value = document.querySelector('#ingest-progress')?.getAttribute('value');
      if (state && window.seen.states.at(-1) !== state) window.seen.states.push(state);
      if (value && window.seen.progress.at(-1) !== value) window.seen.progress.push(value);
    };
    record();
    new MutationObserver(record).observe(document.body, { childList: true, subtree: true, attributes: true });
  });
  await hydrated(page);
  await page.waitForSelector('#job-state[data-state="done"]', { timeout: 180000 });
  const seen = await page.evaluate(() => window.seen);
  result.states = seen.states;
  result.progress = seen.progress.map(Number);
  result.summary = (await page.textContent('#job-state')).trim();
  await page.screenshot({ path: join(shots, 'corpus-job.png'), fullPage: true });

  // Ask about the documents: the link sets the corpus.
  await Promise.all([page.waitForURL(/corpus=hartwell/), page.click('#ask-corpus')]);
  await hydrated(page);
  await page.fill('#q', 'how many reading rooms does the hartwell library have');
  await Promise.all([page.waitForNavigation({ timeout: 120000 }), page.click('.question-row button[type=submit]')]);
  await page.waitForSelector('#count-value', { timeout: 120000 });
  result.count = (await page.textContent('#count-value')).trim();

  // Listed, then deleted with its button.
  await page.goto(`${base}/admin`, { waitUntil: 'load' });
  await hydrated(page);
  result.corpus_listed = (await page.$('tr[data-corpus="hartwell"]')) !== null;
  await page.screenshot({ path: join(shots, 'corpora.png'), fullPage: true });
  // Asked twice: "Delete…" opens the button that deletes.
  result.delete_hidden_first = !(await page.isVisible('tr[data-corpus="hartwell"] button.danger'));
  await page.click('tr[data-corpus="hartwell"] summary');
  await Promise.all([
    page.waitForURL(/deleted=hartwell/, { timeout: 60000 }),
    page.click('tr[data-corpus="hartwell"] button.danger'),
  ]);
  result.deleted = (await page.textContent('#admin-deleted')).trim();
  result.still_listed = (await page.$('tr[data-corpus="hartwell"]')) !== null;
  result.token_in_url = result.token_in_url || page.url().includes('token=');
} catch (e) {
  problems.push(`corpus pages: ${e.stack || e}`);
} finally {
  await browser.close();
}
finish(problems, result);
