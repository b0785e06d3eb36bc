// A person's own documents from upload to a verified answer, without reading the docs (issue
// 73), in Debian's headless Chromium: logs in from the home page's header and comes back to it,
// follows the header to the upload form, uploads a Markdown file and a CSV file from the file
// picker, asks about them with the corpus shown above the answer, corrects the value answer
// with the right value and its unit, accepts the correction in the review queue (reached from
// the header) and sees the verified value on a second server. Then the same answer page at
// 390 px: nothing scrolls sideways and no two labels of the plot overlap.
//
//   node tests/browser/journey.mjs BASE_A BASE_B SCREENSHOT_DIR ADMIN_TOKEN
// Prints one JSON line with what each step saw.
import { finish, launch, recordProblems } from './chromium.mjs';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const [baseA, baseB, shots, token] = process.argv.slice(2);
if (!baseA || !baseB || !shots || !token) {
  console.error('usage: node journey.mjs BASE_A BASE_B SCREENSHOT_DIR ADMIN_TOKEN');
  process.exit(2);
}
mkdirSync(shots, { recursive: true });

const CLUB = `# Ashcombe Tennis Club

Ashcombe Tennis Club was founded in 1921 and plays on six floodlit courts beside the river.

## Facilities

- Six floodlit courts
- A clubhouse with a bar
- Changing rooms
- A practice wall
`;
const FEES = `Membership,Fee (£)
Adult,320
Junior,95
Family,540
Student,120
`;
const QUESTION = 'how much is the junior membership fee';

const browser = await launch();
const problems = [];
const result = {};
const hydrated = (page) => page.waitForSelector('main[data-hydrated="true"]', { timeout: 60000 });
// Pairs of boxes that overlap (by more than half a pixel each way).
const overlapping = (boxes) => {
  const pairs = [];
  for (let i = 0; i < boxes.length; i += 1) {
    for (let j = i + 1; j < boxes.length; j += 1) {
      const a = boxes[i]; const b = boxes[j];
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 0.5 && y > 0.5) pairs.push([a.text, b.text]);
    }
  }
  return pairs;
};
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  recordProblems(page, problems);

  // Log in from the home page's header, and come back to it.
  await page.goto(`${baseA}/`, { waitUntil: 'load' });
  await hydrated(page);
  result.login_link = (await page.$('#nav-login')) !== null;
  await Promise.all([page.waitForURL(/\/login\?next=/), page.click('#nav-login')]);
  await hydrated(page);
  await page.fill('#login-form input[name=token]', token);
  await Promise.all([
    page.waitForURL(`${baseA}/`, { timeout: 60000 }),
    page.click('#login-form button[type=submit]'),
  ]);
  await hydrated(page);
  result.back_home = new URL(page.url()).pathname === '/';
  result.nav_after_login = await page.$$eval('#admin-nav a', (links) => links.map((a) => a.textContent.trim()));
  result.login_link_after = (await page.$('#nav-login')) !== null;

  // The header's "Upload" leads to the form; the picker offers Markdown and CSV.
  await Promise.all([page.waitForURL(/\/admin/), page.click('#nav-upload')]);
  await hydrated(page);
  await page.waitForSelector('#upload-form');
  result.accept = await page.getAttribute('input[name=file]', 'accept');
  await page.fill('input[name=corpus]', 'ashcombe');
  await page.setInputFiles('input[name=file]', [
    { name: 'club.md', mimeType: 'text/markdown', buffer: Buffer.from(CLUB) },
    { name: 'fees.csv', mimeType: 'text/csv', buffer: Buffer.from(FEES) },
  ]);
  await Promise.all([
    page.waitForURL(/\/admin\/jobs\/[0-9a-f-]{36}$/, { timeout: 60000 }),
    page.click('#upload-form button[type=submit]'),
  ]);
  await hydrated(page);
  await page.waitForSelector('#job-state[data-state="done"]', { timeout: 180000 });
  result.job = (await page.textContent('#job-state')).trim();

  // Ask about the documents: the corpus is named above the question's answer.
  await Promise.all([page.waitForURL(/corpus=ashcombe/), page.click('#ask-corpus')]);
  await hydrated(page);
  result.banner_home = (await page.textContent('#corpus-banner')).trim();
  await page.fill('#q', QUESTION);
  await Promise.all([page.waitForNavigation({ timeout: 120000 }), page.click('.question-row button[type=submit]')]);
  await page.waitForSelector('#value-value, #count-value', { timeout: 120000 });
  await hydrated(page);
  result.banner_answer = (await page.textContent('#corpus-banner')).trim();
  result.kind = await page.getAttribute('.answer', 'data-kind');
  result.value = (await page.textContent('#value-value')).trim();
  await page.screenshot({ path: join(shots, 'journey-answer.png'), fullPage: true });

  // A count read from a list tells that story alone: no other passage's count phrase, support
  // line or plot.
  const listed = page.url().replace(/q=[^&]*/, `q=${encodeURIComponent('how many facilities does ashcombe tennis club have')}`);
  const list = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  recordProblems(list, problems);
  await list.goto(listed, { waitUntil: 'load' });
  await list.waitForSelector('#count-value', { timeout: 120000 });
  result.list_count = (await list.textContent('#count-value')).trim();
  result.list_read_from = (await list.$('#read-from')) ? (await list.textContent('#read-from')).trim() : null;
  result.list_other_story = {
    quote: (await list.$('#cnp-rep')) !== null,
    support: (await list.$('#count-support')) !== null,
    plot: (await list.$('.count-plot')) !== null,
  };
  await list.close();

  // Correct it with the right value and its unit.
  const form = page.locator('form.feedback', { has: page.locator('input[name="form[corrected_unit]"]') }).first();
  result.unit_offered = await form.locator('input[name="form[corrected_unit]"]').inputValue();
  await form.locator('input[name="form[corrected_value]"]').fill('95');
  await form.locator('input[name="form[corrected_unit]"]').fill('£');
  await form.locator('input[name="form[comment]"]').fill('fees.csv, the Junior row');
  await form.locator('button.fb-wrong').click();
  await form.locator('.fb-ok').waitFor({ timeout: 30000 });
  result.feedback = (await form.locator('.fb-ok').textContent()).trim();

  // The review queue from the header: the question's text, Tally's answer, the visitor's.
  await Promise.all([page.waitForURL(/\/admin\/review/), page.click('#nav-review')]);
  await hydrated(page);
  const queued = page.locator(`article.queued[data-question="${QUESTION}"]`);
  result.queued_row = (await queued.locator('tbody tr').first().textContent()).replace(/\s+/g, ' ').trim();
  result.review_raw_json = (await page.content()).includes('{&quot;text&quot;') || (await page.textContent('main')).includes('{"text"');
  await Promise.all([
    page.waitForURL(/done=accepted/, { timeout: 60000 }),
    queued.locator('button:has-text("Accept")').first().click(),
  ]);
  result.done = (await page.textContent('#review-done')).trim();

  // The second server gives the verified value, written as people write money.
  const other = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  recordProblems(other, problems);
  const asked = `/?q=${encodeURIComponent(QUESTION)}&corpus=ashcombe`;
  await other.goto(`${baseB}${asked}`, { waitUntil: 'load' });
  await other.waitForSelector('#verified-count', { timeout: 120000 });
  result.verified_b = (await other.textContent('#verified-count')).trim();
  result.answer_text_b = (await other.textContent('.answer')).replace(/\s+/g, ' ');

  // The same page on a phone: nothing sideways, no overlapping labels.
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  recordProblems(phone, problems);
  await phone.goto(`${baseB}${asked}`, { waitUntil: 'load' });
  await phone.waitForSelector('#verified-count', { timeout: 120000 });
  await hydrated(phone);
  result.phone_scroll = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  const labels = await phone.$$eval('svg text', (texts) => texts
    .map((t) => { const r = t.getBoundingClientRect(); return { text: t.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom }; })
    .filter((b) => b.right > b.left));
  result.phone_labels = labels.length;
  result.phone_overlaps = overlapping(labels);
  await phone.screenshot({ path: join(shots, 'journey-phone.png'), fullPage: true });
} catch (e) {
  problems.push(`journey: ${e.stack || e}`);
} finally {
  await browser.close();
}
finish(problems, result);
