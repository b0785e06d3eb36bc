// Pages that tell one honest story (issue 87), walked as a new user would at 1,280 and 390 px in
// Debian's headless Chromium: the home page invites an upload and says what it will ask; a
// mixed upload (two readable files, one empty) ends "Done" with a line per file; the corpus page
// lists its documents; a count says its scope and how sure it is; a sum over a table names its
// operation and takes a correction with its unit; a decline on a server without a web search
// does not suggest the web; the history has the corpus and the answer as its page showed it; at
// 390 px nothing scrolls sideways and every plot label is 12 px or more.
//
//   node tests/browser/pages.mjs BASE SCREENSHOT_DIR ADMIN_TOKEN
// Prints one JSON line with what each step saw.
import { finish, launch, recordProblems } from './chromium.mjs';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const [base, shots, token] = process.argv.slice(2);
if (!base || !shots || !token) {
  console.error('usage: node pages.mjs BASE SCREENSHOT_DIR ADMIN_TOKEN');
  process.exit(2);
}
mkdirSync(shots, { recursive: true });

// The same documents as tests/integration/pages.rs.
const CLUB = `# Brackley Rowing Club

Brackley Rowing Club was founded in 1887 on the river Ouse. The club has 212 members and keeps 14 boats in its boathouse.

## Crews

- Men's eight
- Women's eight
- Junior four
- Veterans' four
`;
const CREWS = `Crew,Rowers,Kit cost (£)
Men's eight,9,1250.50
Women's eight,9,980.25
Junior four,5,410.10
Veterans' four,5,390.00
`;
const ASKED = {
  members: 'how many members does brackley rowing club have',
  kit: 'what is the total kit cost of the crews',
  nothing: 'how many lighthouses does brackley rowing club own',
};
const WIDTHS = [1280, 390];

const browser = await launch();
const problems = [];
const result = { widths: {} };
const hydrated = (page) => page.waitForSelector('main[data-hydrated="true"]', { timeout: 60000 });
const text = async (page, selector) => {
  const found = await page.$(selector);
  return found ? (await found.textContent()).replace(/\s+/g, ' ').trim() : null;
};
// How far the page scrolls sideways (0: not at all).
const sideways = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
// The smallest rendered size of the plots' visible labels, in CSS pixels.
const smallestLabel = (page) => page.$$eval('svg text', (texts) => {
  const sizes = texts
    .filter((t) => getComputedStyle(t).display !== 'none' && t.getBoundingClientRect().width > 0)
    .map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
  return sizes.length ? Math.min(...sizes) : null;
});
const ask = (q) => `${base}/?q=${encodeURIComponent(q)}&corpus=brackley`;

try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  recordProblems(page, problems);

  // The home page invites an upload and says what it will ask.
  await page.goto(`${base}/?corpus=all`, { waitUntil: 'load' });
  await hydrated(page);
  result.invite = await page.getAttribute('#upload-invite', 'href');
  result.home_banner = await text(page, '#corpus-banner');

  // Log in, upload two readable files and an empty one.
  await page.goto(`${base}/login?next=/admin`, { waitUntil: 'load' });
  await hydrated(page);
  await page.fill('#login-form input[name=token]', token);
  await Promise.all([page.waitForURL(`${base}/admin`, { timeout: 60000 }), page.click('#login-form button[type=submit]')]);
  await hydrated(page);
  await page.fill('input[name=corpus]', 'brackley');
  await page.setInputFiles('input[name=file]', [
    { name: 'club.md', mimeType: 'text/markdown', buffer: Buffer.from(CLUB) },
    { name: 'crews.csv', mimeType: 'text/csv', buffer: Buffer.from(CREWS) },
    { name: 'empty.txt', mimeType: 'text/plain', buffer: Buffer.from(' \n') },
  ]);
  await Promise.all([
    page.waitForURL(/\/admin\/jobs\/[0-9a-f-]{36}$/, { timeout: 60000 }),
    page.click('#upload-form button[type=submit]'),
  ]);
  await hydrated(page);
  await page.waitForSelector('#job-state[data-state="done"]', { timeout: 180000 });
  result.job_title = await text(page, '#job-title');
  result.job_tab = await page.title();
  result.job_files = await page.$$eval('#file-outcomes li', (items) => items.map((li) => li.textContent.replace(/\s+/g, ' ').trim()));

  // The corpus page lists its documents.
  await page.goto(`${base}/admin`, { waitUntil: 'load' });
  await hydrated(page);
  await Promise.all([page.waitForURL(/\/admin\/corpora\/brackley$/), page.click('tr[data-corpus="brackley"] a.corpus-page')]);
  await hydrated(page);
  await page.waitForSelector('#document-table', { timeout: 60000 });
  result.corpus_documents = await page.$$eval('#document-table tbody tr', (rows) => rows.map((r) => r.dataset.source));

  for (const width of WIDTHS) {
    const seen = {};
    const view = await browser.newPage({ viewport: { width, height: 900 } });
    recordProblems(view, problems);

    // A count: its scope, and how sure it is (a probability, or "Not sure" with the reading).
    await view.goto(ask(ASKED.members), { waitUntil: 'load' });
    await view.waitForSelector('#count-value', { timeout: 120000 });
    await hydrated(view);
    seen.count_scope = await text(view, '#answer-scope');
    seen.count_headline = await text(view, '#count-value');
    seen.count_not_sure = await view.getAttribute('#count-value', 'data-not-sure');
    seen.count_certainty = await text(view, '#certainty');
    seen.count_sideways = await sideways(view);
    await view.screenshot({ path: join(shots, `pages-count-${width}.png`), fullPage: true });

    // A sum in pounds: the operation named, its rows in their own scrolling box, its feedback
    // a value with its unit.
    await view.goto(ask(ASKED.kit), { waitUntil: 'load' });
    await view.waitForSelector('#count-value', { timeout: 120000 });
    await hydrated(view);
    seen.sum_operation = await text(view, '#count-title');
    seen.sum_headline = await text(view, '#count-value');
    seen.sum_unit_field = await view.$$eval('input[name="form[corrected_unit]"]', (inputs) => inputs.map((i) => i.value));
    seen.sum_certainty = await text(view, '#certainty');
    seen.sum_sideways = await sideways(view);
    await view.screenshot({ path: join(shots, `pages-sum-${width}.png`), fullPage: true });

    // A question the documents do not answer: what to try, without the web this server lacks.
    await view.goto(ask(ASKED.nothing), { waitUntil: 'load' });
    await view.waitForSelector('#count-value', { timeout: 120000 });
    await hydrated(view);
    seen.decline_headline = await text(view, '#count-value');
    seen.decline_not_sure = await view.getAttribute('#count-value', 'data-not-sure');
    seen.decline_reason = await text(view, '#abstention');
    seen.decline_try = await text(view, '#what-to-try');
    seen.decline_web = (await view.$('#try-web')) !== null;

    // A plot on a log scale over the built-in corpus (counts from 2 to 17,000): labels 12 px or
    // more, the caption true to its ticks.
    await view.goto(`${base}/?q=${encodeURIComponent('how many islands does indonesia have')}&corpus=all`, { waitUntil: 'load' });
    await view.waitForSelector('#count-value', { timeout: 120000 });
    await hydrated(view);
    seen.plot = (await view.$('.count-plot svg')) !== null;
    seen.plot_smallest_label = await smallestLabel(view);
    seen.plot_scale_note = await text(view, '.plot-scale');
    seen.plot_ticks = await view.$$eval('svg text.plot-tick', (ticks) => ticks.map((t) => t.textContent.trim()));
    seen.plot_visible_ticks = await view.$$eval('svg text.plot-tick', (ticks) => ticks
      .filter((t) => getComputedStyle(t).display !== 'none').length);
    seen.plot_overlaps = await view.$$eval('svg text', (texts) => {
      const boxes = texts.filter((t) => getComputedStyle(t).display !== 'none')
        .map((t) => t.getBoundingClientRect()).filter((r) => r.width > 0);
      let pairs = 0;
      for (let i = 0; i < boxes.length; i += 1) {
        for (let j = i + 1; j < boxes.length; j += 1) {
          const a = boxes[i]; const b = boxes[j];
          if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
            && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5) pairs += 1;
        }
      }
      return pairs;
    });
    seen.plot_sideways = await sideways(view);
    await view.screenshot({ path: join(shots, `pages-plot-${width}.png`), fullPage: true });

    // The history: the corpus, and the answers as their pages showed them.
    await view.goto(`${base}/history`, { waitUntil: 'load' });
    await hydrated(view);
    seen.history = await view.$$eval('.history-table tbody tr', (rows) => rows.map((r) => ({
      question: r.querySelector('[data-label="Question"]').textContent.trim(),
      corpus: r.querySelector('[data-label="Asked over"]').textContent.trim(),
      answer: r.querySelector('[data-label="Answer"]').textContent.trim(),
    })));
    seen.history_sideways = await sideways(view);

    // The corpora table.
    await view.goto(`${base}/admin`, { waitUntil: 'load' });
    await hydrated(view);
    seen.admin_sideways = await sideways(view);
    await view.close();
    result.widths[width] = seen;
  }
} catch (e) {
  problems.push(`pages: ${e.stack || e}`);
} finally {
  await browser.close();
}
finish(problems, result);
