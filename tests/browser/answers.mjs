// Asks Tally questions in Debian's headless Chromium, as a person would, and checks what the
// pages show once hydrated: a dataset count question (count, a CNP group, an instance, a
// highlighted snippet reached from the plot), feedback on an instance (saved in place), and a
// quantity search re-sorted by value, a value question shown in another unit with feedback on one
// observation, and the browser's own history fitting desktop and phone
// widths. Saves screenshots (desktop, phone, dark theme, history at 1280 and 390 px).
//
//   node tests/browser/answers.mjs BASE_URL SCREENSHOT_DIR
// Prints one JSON line: {"answer_id":…, "feedback_id":…, "count":…, "values":[…], "stages":[…],
// "value": {"kind_note", "shown", "switched", "from", "to", "feedback_id", "answer_id"}}.
import { finish, launch, recordProblems } from './chromium.mjs';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const [base, shots] = process.argv.slice(2);
if (!base || !shots) {
  console.error('usage: node answers.mjs BASE_URL SCREENSHOT_DIR');
  process.exit(2);
}
mkdirSync(shots, { recursive: true });

const COUNT_QUESTION = 'how many songs did paul mccartney write for the beatles';
const SEARCH_QUESTION = 'stadiums with a capacity of more than 80000';
const VALUE_QUESTION = 'how tall is Clyde Drexler';

const browser = await launch();
const problems = [];
const result = {};
const hydrated = (page) => page.waitForSelector('main[data-hydrated="true"]', { timeout: 60000 });
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  recordProblems(page, problems);

  // A count question opened by its URL (a shared link): the progress view shows at once, before
  // the answer, which then takes its place.
  // (A data set's question: its stored passages are all read, about a second; a question the
  // corpus knows nothing about is declined in milliseconds, before any progress could show.)
  await page.goto(base + '/?q=how+many+songs+did+billy+joel+write&mode=count', { waitUntil: 'commit' });
  await page.waitForSelector('#answering-now', { state: 'visible', timeout: 30000 });
  result.progress_first = (await page.textContent('#answering-now')).trim();
  if (await page.$('#count-value')) throw new Error('the answer came with the first bytes: no progress to see');
  await page.waitForSelector('#count-value', { timeout: 180000 });
  result.progress_hidden_after = await page.$eval('#answering-now', (el) => getComputedStyle(el).display === 'none');

  // A value question the corpus cannot answer: a short page that says what to try.
  await page.goto(base + '/?q=how+heavy+is+a+zorblax&mode=value', { waitUntil: 'load' });
  await page.waitForSelector('#what-to-try', { state: 'visible', timeout: 60000 });
  result.no_answer = (await page.textContent('#value-value')).trim();
  await page.screenshot({ path: join(shots, 'no-answer.png'), fullPage: true });

  // The count question, through the question box.
  await page.goto(base + '/', { waitUntil: 'load' });
  await hydrated(page);
  // Asked from the hydrated page, the answer streams in: record every stage the progress list
  // shows while the answer is computed.
  await page.evaluate(() => {
    window.seenStages = [];
    window.seenUnderWay = [];
    new MutationObserver(() => {
      for (const li of document.querySelectorAll('.working .answer-progress li:not(.under-way)')) {
        const stage = li.textContent.replace('✓', '').replace(/[\d.,]+\s*m?s$/, '').trim();
        if (!window.seenStages.includes(stage)) window.seenStages.push(stage);
      }
      for (const li of document.querySelectorAll('.working .answer-progress li.under-way')) {
        const doing = li.textContent.replace('…', '').trim();
        if (!window.seenUnderWay.includes(doing)) window.seenUnderWay.push(doing);
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  await page.fill('#q', COUNT_QUESTION);
  await Promise.all([page.waitForNavigation({ timeout: 120000 }), page.click('.question-row button[type=submit]')]);
  await page.waitForSelector('#count-value', { timeout: 120000 });
  await hydrated(page);
  result.stages = await page.evaluate(() => window.seenStages);
  result.under_way = await page.evaluate(() => window.seenUnderWay);
  result.count = (await page.textContent('#count-value')).trim();
  result.answer_id = Number(await page.getAttribute('.answer', 'data-answer-id'));
  result.kind_note = (await page.textContent('#kind-note')).trim();
  const synonyms = await page.$$('.group-synonyms li');
  if (synonyms.length === 0) throw new Error('no CNP synonyms shown');
  result.synonym = (await synonyms[0].textContent()).trim();
  const marks = await page.$$('article.snippet mark.count.cnp-representative');
  if (marks.length === 0) throw new Error('no highlighted CNP_rep in the snippets');
  const instanceMarks = await page.$$('article.snippet mark.instance');
  if (instanceMarks.length === 0) throw new Error('no highlighted instance in the snippets');

  // A plot point leads to its snippet.
  const point = await page.$('a.plot-point');
  const href = await point.getAttribute('href');
  await point.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((h) => location.hash === h, href, { timeout: 10000 });
  const targetVisible = await page.$eval(href.replace(/([.:])/g, '\\$1'), (el) => {
    const r = el.getBoundingClientRect();
    return r.top < window.innerHeight && r.bottom > 0;
  });
  if (!targetVisible) throw new Error(`snippet ${href} is not scrolled into view`);

  // Feedback on the first instance, sent in place.
  const instance = await page.$('.instances li');
  result.instance = (await instance.$eval('a, span', (el) => el.textContent)).trim();
  await instance.$eval('button.fb-relevant', (b) => b.click());
  await page.waitForSelector('.instances li .fb-ok', { timeout: 30000 });
  const saved = (await page.textContent('.instances li .fb-ok')).trim();
  const id = saved.match(/#(\d+)/);
  if (!id) throw new Error(`feedback not confirmed: ${saved}`);
  result.feedback_id = Number(id[1]);
  await page.screenshot({ path: join(shots, 'count.png'), fullPage: true });

  // The same answer on a phone, in the dark theme.
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
  await phone.goto(page.url().split('#')[0], { waitUntil: 'load' });
  await phone.waitForSelector('#count-value', { timeout: 120000 });
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 2) throw new Error(`the phone layout scrolls sideways by ${overflow}px`);
  await phone.screenshot({ path: join(shots, 'count-phone-dark.png'), fullPage: false });
  await phone.close();

  // A quantity search, then sorted by value (client-side navigation once hydrated).
  const searchUrl = `${base}/?q=${encodeURIComponent(SEARCH_QUESTION)}&mode=quantity&ranker=qbm25`;
  await page.goto(searchUrl, { waitUntil: 'load' });
  await page.waitForSelector('#results', { timeout: 120000 });
  await hydrated(page);
  result.understood = (await page.textContent('#understood .constraint')).trim();
  await page.click('a.sort[data-sort="value-descending"]');
  await page.waitForSelector('a.sort.current[data-sort="value-descending"]', { timeout: 60000 });
  const converted = await page.$$eval('#results .converted', (els) => els.map((e) => e.textContent));
  result.values = converted.map((t) => Number(t.split('= ')[1].split(' ')[0].replace(/,/g, '')));
  if (result.values.length < 3) throw new Error(`too few sorted results: ${converted}`);
  for (let i = 1; i < result.values.length; i++) {
    if (result.values[i] > result.values[i - 1]) throw new Error(`not sorted by value: ${result.values}`);
  }
  await page.screenshot({ path: join(shots, 'search.png'), fullPage: true });

  // A value question through the question box (kind detected), then shown in another unit and
  // one observation judged, in place.
  await page.goto(base + '/', { waitUntil: 'load' });
  await hydrated(page);
  await page.fill('#q', VALUE_QUESTION);
  await Promise.all([page.waitForNavigation({ timeout: 120000 }), page.click('.question-row button[type=submit]')]);
  await page.waitForSelector('#value-value', { timeout: 120000 });
  await hydrated(page);
  const value = {};
  value.kind_note = (await page.textContent('#kind-note')).trim();
  value.answer_id = Number(await page.getAttribute('.answer', 'data-answer-id'));
  value.shown = (await page.textContent('#value-value')).trim();
  value.from = await page.getAttribute('button.unit-choice[aria-pressed="true"]', 'data-unit');
  const other = await page.$('button.unit-choice[aria-pressed="false"]');
  if (!other) throw new Error('no other unit to switch to');
  value.to = await other.getAttribute('data-unit');
  await other.click();
  await page.waitForFunction((before) => document.querySelector('#value-value').textContent.trim() !== before, value.shown, { timeout: 10000 });
  value.switched = (await page.textContent('#value-value')).trim();
  value.plot_answer = (await page.textContent('#plot-answer')).trim();
  const observation = await page.$('article.observation');
  if (!observation) throw new Error('no observation shown');
  if (!(await observation.$('mark'))) throw new Error('the observation has no highlighted quantity');
  await observation.$eval('button.fb-relevant', (b) => b.click());
  await page.waitForSelector('article.observation .fb-ok', { timeout: 30000 });
  const valueSaved = (await page.textContent('article.observation .fb-ok')).trim();
  const valueId = valueSaved.match(/#(\d+)/);
  if (!valueId) throw new Error(`feedback not confirmed: ${valueSaved}`);
  value.feedback_id = Number(valueId[1]);
  result.value = value;
  await page.screenshot({ path: join(shots, 'value.png'), fullPage: true });

  // The history shows this browser's questions (its visitor cookie), a long unbroken one too,
  // and fits the page from desktop to phone width.
  const junk = 'x'.repeat(300);
  await page.goto(`${base}/?q=${junk}&mode=search`, { waitUntil: 'load' });
  await page.goto(base + '/history', { waitUntil: 'load' });
  await page.waitForSelector('.history-table', { timeout: 60000 });
  const listed = await page.$$eval('.history-table td a', (as) => as.map((a) => a.textContent));
  if (!listed.includes(COUNT_QUESTION)) throw new Error(`history lacks the count question: ${listed}`);
  if (!listed.includes(junk)) throw new Error('history lacks the long question');
  result.history = [];
  for (const [width, name] of [[1280, 'history-desktop.png'], [390, 'history-phone.png']]) {
    await page.setViewportSize({ width, height: 900 });
    const fit = await page.evaluate(() => ({
      overflow: document.documentElement.scrollWidth - window.innerWidth,
      table: document.querySelector('.history-table').getBoundingClientRect().right,
      main: document.querySelector('main').getBoundingClientRect().right,
    }));
    if (fit.overflow > 2 || fit.table > fit.main + 2) {
      throw new Error(`the history does not fit at ${width}px: ${JSON.stringify(fit)}`);
    }
    await page.screenshot({ path: join(shots, name), fullPage: true });
    result.history.push({ width, ...fit });
  }
} catch (e) {
  problems.push(String(e && e.stack || e));
} finally {
  await browser.close();
}
finish(problems, result);
