// Pages a lay person can follow (issue 101), in Debian's headless Chromium at 1,280 and 390 px:
// an operator uploads a person's files (a scan among them) and reads what became of each; asks
// about them with the corpus chosen by the question box, in every mode; corrects an answer and
// accepts the correction; sees the verified answer first, over the corpus and over all corpora;
// deletes the corpus and comes back to a home page that says so. Axe runs on every page walked.
//
//   node tests/browser/walk.mjs BASE_URL SCREENSHOT_DIR ADMIN_TOKEN SCAN_FILE MINUTES_FILE
// Prints one JSON line with what each step saw.
import { finish, launch, recordProblems } from './chromium.mjs';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';

const [base, shots, token, scanFile, minutesFile] = process.argv.slice(2);
if (!base || !shots || !token || !scanFile || !minutesFile) {
  console.error('usage: node walk.mjs BASE_URL SCREENSHOT_DIR ADMIN_TOKEN SCAN_FILE MINUTES_FILE');
  process.exit(2);
}
mkdirSync(shots, { recursive: true });
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const CORPUS = 'walk';
const FEES = `Membership,Fee (£)
Adult,320
Junior,95
Family,540
Student,120
Senior,180
`;
const VALUE_Q = 'how much is the adult membership fee';
const COUNT_Q = 'how many memberships cost more than £150';
const SCAN_Q = 'what did the new room at brackenfold village shop cost to fit';
const WIDTHS = [1280, 390];

const browser = await launch();
const problems = [];
const result = { widths: {} };
const hydrated = (page) => page.waitForSelector('main[data-hydrated="true"]', { timeout: 60000 });
const text = async (page, sel) => ((await page.$(sel)) ? (await page.textContent(sel)).replace(/\s+/g, ' ').trim() : null);
const answerUrl = (q, extra = '') => `${base}/?q=${encodeURIComponent(q)}${extra}`;
const waitAnswer = (page) => page.waitForSelector('.answer, #answer-error', { timeout: 180000 });

// Every violation axe finds (WCAG 2.x A and AA), as problems.
const axe = async (page, name) => {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return r.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  });
  for (const v of violations) problems.push(`axe on ${name} at ${page.viewportSize().width}px: ${v}`);
  return violations.length;
};

// The narrowest column of each table on the page, in characters of its own font (a column
// squeezed to three letters a line reads as noise).
const narrowest = (page, selector) => page.$$eval(selector, (tables) => tables.map((table) => {
  const canvas = document.createElement('canvas').getContext('2d');
  let least = Infinity;
  for (const cell of table.querySelectorAll('tr:first-child > th, tbody tr:first-child > td')) {
    const style = getComputedStyle(cell);
    // Not rendered (a phone's card layout hides the header row).
    if (cell.getClientRects().length === 0) continue;
    canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const perChar = canvas.measureText('abcdefghij').width / 10;
    const inner = cell.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    least = Math.min(least, inner / perChar);
  }
  return Math.floor(least);
}));

// Each sentence that gives a probability of being right, as the pages write them.
const doubtSentences = (page) => page.$$eval('#certainty, #abstention, #not-sure, #verified-meta', (els) => els
  .map((e) => e.textContent.replace(/\s+/g, ' ').trim())
  .filter((t) => /\d+%/.test(t) && /sure|right|chance/.test(t)));

// Evidence lines that say one part twice ("Shop · Shop · page 1", "describes: fees.csv … in
// fees.csv").
const repeatedSources = (page) => page.$$eval('.snippet-source', (lines) => lines
  .map((l) => l.textContent.split(' · ').map((s) => s.trim().replace(/^(describes: |in )/, '')).filter(Boolean))
  .filter((parts) => new Set(parts).size < parts.length)
  .map((parts) => parts.join(' · ')));

// A passage listed twice in one list of evidence.
const passagesTwice = (page) => page.$$eval('section.snippets', (sections) => sections.flatMap((s) => {
  const texts = [...s.querySelectorAll('article.snippet > p:first-child')].map((p) => p.textContent);
  return texts.filter((t, i) => texts.indexOf(t) !== i);
}));

try {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  recordProblems(page, problems);

  // Log in from the header.
  await page.goto(`${base}/`, { waitUntil: 'load' });
  await hydrated(page);
  await Promise.all([page.waitForURL(/\/login\?next=/), page.click('#nav-login')]);
  await hydrated(page);
  await page.fill('#login-form input[name=token]', token);
  await Promise.all([page.waitForURL(`${base}/`, { timeout: 60000 }), page.click('#login-form button[type=submit]')]);
  await hydrated(page);

  // Upload a scan, minutes and a fee table; each file's line says how it was read.
  await Promise.all([page.waitForURL(/\/admin/), page.click('#nav-upload')]);
  await hydrated(page);
  // The corpus page waits for the login's check before its form.
  await page.waitForSelector('#upload-form', { timeout: 60000 });
  result.logout_buttons = await page.$$eval('button', (b) => b.filter((x) => x.textContent.trim() === 'Log out').length);
  result.help_mentions_scans = (await text(page, '.upload-form + p')).includes('read by OCR');
  await page.fill('input[name=corpus]', CORPUS);
  await page.setInputFiles('input[name=file]', [
    { name: basename(scanFile), mimeType: 'image/jpeg', buffer: readFileSync(scanFile) },
    { name: basename(minutesFile), mimeType: 'text/plain', buffer: readFileSync(minutesFile) },
    { name: 'fees.csv', mimeType: 'text/csv', buffer: Buffer.from(FEES) },
  ]);
  await Promise.all([
    page.waitForURL(/\/admin\/jobs\/[0-9a-f-]{36}$/, { timeout: 180000 }),
    page.click('#upload-form button[type=submit]'),
  ]);
  await hydrated(page);
  await page.waitForSelector('#job-state[data-state="done"]', { timeout: 180000 });
  result.file_lines = await page.$$eval('#file-outcomes li', (items) => items.map((li) => li.textContent.replace(/\s+/g, ' ').trim()));
  result.job_state = await text(page, '#job-state');
  await axe(page, 'job');

  // The same fee table again: nothing new, said so, the bar full.
  await page.goto(`${base}/admin`, { waitUntil: 'load' });
  await hydrated(page);
  await page.waitForSelector('#upload-form', { timeout: 60000 });
  await page.fill('input[name=corpus]', CORPUS);
  await page.setInputFiles('input[name=file]', [{ name: 'fees.csv', mimeType: 'text/csv', buffer: Buffer.from(FEES) }]);
  await Promise.all([
    page.waitForURL(/\/admin\/jobs\/[0-9a-f-]{36}$/, { timeout: 120000 }),
    page.click('#upload-form button[type=submit]'),
  ]);
  await hydrated(page);
  await page.waitForSelector('#job-state[data-state="done"]', { timeout: 120000 });
  result.repeat_state = await text(page, '#job-state');
  result.repeat_bar_full = await page.$eval('#ingest-progress', (p) => p.value === p.max);

  // The corpus chosen by the question box (not among the folded settings), a value question
  // asked with the "Value question" mode: the corpus is kept, in the answer and in every mode.
  await page.goto(`${base}/`, { waitUntil: 'load' });
  await hydrated(page);
  result.picker_in_settings = await page.$('details.settings #setting-corpus') !== null;
  result.picker_visible = await page.isVisible('#setting-corpus');
  await page.selectOption('#setting-corpus', CORPUS);
  await page.fill('#q', VALUE_Q);
  await page.check('input[name=mode][value=value]');
  await Promise.all([page.waitForURL(/q=/), page.click('.question-row button[type=submit]')]);
  await waitAnswer(page);
  result.value_scope = await page.getAttribute('#answer-scope', 'data-corpus');
  result.value_text = await text(page, '#own-answer');
  await Promise.all([page.waitForURL(/mode=count/), page.click('a.mode-switch[data-mode=count]')]);
  await waitAnswer(page);
  result.count_mode_scope = await page.getAttribute('#answer-scope', 'data-corpus');
  await Promise.all([page.waitForURL(/mode=quantity/), page.click('a.mode-switch[data-mode=quantity]')]);
  await waitAnswer(page);
  result.quantity_mode_scope = await page.getAttribute('#answer-scope', 'data-corpus');

  // Correct the value; the confirmation says a reviewer reads it; accept it in the queue.
  await page.goto(answerUrl(VALUE_Q, `&corpus=${CORPUS}`), { waitUntil: 'load' });
  await waitAnswer(page);
  await hydrated(page);
  const form = page.locator('form.feedback', { has: page.locator('input[name="form[corrected_unit]"]') }).first();
  await form.locator('input[name="form[corrected_value]"]').fill('340');
  await form.locator('input[name="form[corrected_unit]"]').fill('£');
  await form.locator('input[name="form[comment]"]').fill('raised at the spring meeting');
  await form.locator('button.fb-wrong').click();
  await form.locator('.fb-ok').waitFor({ timeout: 30000 });
  result.feedback_saved = (await form.locator('.fb-ok').textContent()).trim();
  await Promise.all([page.waitForURL(/\/admin\/review/), page.click('#nav-review')]);
  await hydrated(page);
  await Promise.all([
    page.waitForURL(/done=accepted/, { timeout: 60000 }),
    page.locator(`article.queued[data-question="${VALUE_Q}"] button:has-text("Accept")`).first().click(),
  ]);

  for (const width of WIDTHS) {
    const seen = {};
    await page.setViewportSize({ width, height: 900 });

    // The verified answer first; Tally's own answer below it, labelled as corrected.
    await page.goto(answerUrl(VALUE_Q, `&corpus=${CORPUS}`), { waitUntil: 'load' });
    await waitAnswer(page);
    await hydrated(page);
    seen.verified = await text(page, '#verified-count');
    seen.corrected_label = await text(page, '#corrected-label');
    seen.own_smaller = await page.evaluate(() => {
      const size = (sel) => parseFloat(getComputedStyle(document.querySelector(sel)).fontSize);
      return size('#own-answer #value-value') < size('#verified-count');
    });
    seen.verified_first = await page.evaluate(() => {
      const v = document.querySelector('#verified-answer');
      const own = document.querySelector('#own-answer');
      return Boolean(v && own && (v.compareDocumentPosition(own) & Node.DOCUMENT_POSITION_FOLLOWING));
    });
    seen.doubt = await doubtSentences(page);
    seen.sources_repeating = await repeatedSources(page);
    seen.passages_twice = await passagesTwice(page);
    seen.sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await axe(page, 'verified answer');
    await page.screenshot({ path: join(shots, `walk-verified-${width}.png`), fullPage: true });

    // Over all corpora, the correction is said beside Tally's own answer.
    await page.goto(answerUrl(VALUE_Q, '&corpus=all'), { waitUntil: 'load' });
    await waitAnswer(page);
    seen.elsewhere = await text(page, '#verified-elsewhere');

    // A count under a condition: its rows' table has no column too narrow to read.
    await page.goto(answerUrl(COUNT_Q, `&corpus=${CORPUS}`), { waitUntil: 'load' });
    await waitAnswer(page);
    await hydrated(page);
    seen.count = await text(page, '#count-value');
    seen.rows_narrowest = await narrowest(page, '#aggregation-rows');
    seen.doubt = seen.doubt.concat(await doubtSentences(page));
    await axe(page, 'count with a condition');

    // A value read from the scan: beside its evidence, the lines of the page it was read from,
    // loaded, as wide as the answer at most.
    await page.goto(answerUrl(SCAN_Q, `&mode=value&corpus=${CORPUS}`), { waitUntil: 'load' });
    await waitAnswer(page);
    await hydrated(page);
    await page.waitForFunction(() => [...document.querySelectorAll('.scan-crop img')].every((i) => i.complete), null, { timeout: 30000 });
    seen.scan_crops = await page.$$eval('.scan-crop img', (imgs) => imgs.map((i) => ({
      loaded: i.naturalWidth > 0,
      alt: i.alt,
      right: Math.round(i.getBoundingClientRect().right),
    })));
    seen.scan_sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await axe(page, 'value read from a scan');
    await page.screenshot({ path: join(shots, `walk-scan-${width}.png`), fullPage: true });

    // A count the documents do not answer: one way of saying how sure.
    await page.goto(answerUrl('how many vacant plots', `&corpus=${CORPUS}`), { waitUntil: 'load' });
    await waitAnswer(page);
    await hydrated(page);
    seen.doubt = seen.doubt.concat(await doubtSentences(page));
    seen.sources_repeating = seen.sources_repeating.concat(await repeatedSources(page));
    seen.passages_twice = seen.passages_twice.concat(await passagesTwice(page));

    // The history: every answer under the corpus asked, units as the pages write them, no
    // column squeezed.
    await page.goto(`${base}/history`, { waitUntil: 'load' });
    await hydrated(page);
    seen.history = await page.$$eval('.history-table tbody tr', (rows) => rows.map((r) => ({
      question: r.querySelector('td[data-label="Question"]').textContent.trim(),
      kind: r.querySelector('td[data-label="Kind"]').textContent.trim(),
      corpus: r.querySelector('td[data-label="Asked over"]').textContent.trim(),
      answer: r.querySelector('td[data-label="Answer"]').textContent.trim(),
    })));
    seen.history_narrowest = await narrowest(page, '.history-table');
    await axe(page, 'history');
    await page.screenshot({ path: join(shots, `walk-history-${width}.png`), fullPage: true });

    // The header's "API": a page listing the operations, not the raw description.
    await page.goto(`${base}/`, { waitUntil: 'load' });
    await hydrated(page);
    await Promise.all([page.waitForURL(/\/api-docs$/), page.click('nav.site-nav a:has-text("API")')]);
    await hydrated(page);
    // Followed in the app: the list comes once its resource has loaded.
    await page.waitForSelector('#api-operations > li', { timeout: 60000 });
    seen.api_operations = await page.$$eval('#api-operations > li', (items) => items.map((li) => `${li.dataset.method} ${li.dataset.path}`));
    seen.api_sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await axe(page, 'API');

    // The corpora: "Delete…" on the screen.
    await page.goto(`${base}/admin`, { waitUntil: 'load' });
    await hydrated(page);
    await page.waitForSelector('#corpus-table', { timeout: 60000 });
    seen.delete_on_screen = await page.$$eval('#corpus-table summary', (s, w) => s.every((x) => x.getBoundingClientRect().right <= w), width);
    seen.admin_sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await axe(page, 'corpora');
    await page.screenshot({ path: join(shots, `walk-corpora-${width}.png`), fullPage: true });
    result.widths[width] = seen;
  }

  // Delete the corpus from its page; the home page forgets it with a sentence, a link to it
  // says it is gone, and its verified answer no longer shows over all corpora.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${base}/?corpus=${CORPUS}`, { waitUntil: 'load' });
  await hydrated(page);
  await page.goto(`${base}/admin`, { waitUntil: 'load' });
  await hydrated(page);
  await page.waitForSelector(`tr[data-corpus="${CORPUS}"]`, { timeout: 60000 });
  await page.click(`tr[data-corpus="${CORPUS}"] summary`);
  await Promise.all([
    page.waitForURL(/deleted=/, { timeout: 60000 }),
    page.click(`tr[data-corpus="${CORPUS}"] button.danger`),
  ]);
  await page.goto(`${base}/`, { waitUntil: 'load' });
  await hydrated(page);
  result.home_after_delete = await text(page, '#corpus-banner');
  result.home_url_after_delete = page.url();
  await page.goto(`${base}/?corpus=${CORPUS}`, { waitUntil: 'load' });
  await hydrated(page);
  result.link_after_delete = await text(page, '#corpus-banner');
  // Asked from that page, the answer says why there is none (not "the connection was lost"):
  // the server refuses the corpus with a 400, the one refusal this walk causes on purpose.
  const before = problems.length;
  await page.fill('#q', VALUE_Q);
  await Promise.all([page.waitForURL(/q=/), page.click('.question-row button[type=submit]')]);
  await page.waitForSelector('#answer-error, .answer', { timeout: 120000 });
  result.asked_after_delete = await text(page, '#answer-error');
  const refusals = problems.splice(before);
  result.refusals = refusals.length;
  problems.push(...refusals.filter((p) => !/HTTP 400 for|status of 400/.test(p)));
  await page.goto(answerUrl(VALUE_Q, '&corpus=all'), { waitUntil: 'load' });
  await waitAnswer(page);
  result.elsewhere_after_delete = await text(page, '#verified-elsewhere');
} catch (e) {
  problems.push(`walk: ${e.stack || e}`);
} finally {
  await browser.close();
}
finish(problems, result);
