// What every browser test shares: Debian's Chromium started headless with the flags this
// machine's closed network needs, and a page that records every page error, console error and
// HTTP error as a problem.
import { chromium } from 'playwright-core';

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

export function recordProblems(page, problems) {
  page.on('pageerror', (e) => problems.push(`page error: ${e}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()} for ${r.url()}`); });
}

// Prints the problems and exits 1, or prints the result as one JSON line.
export function finish(problems, result) {
  if (problems.length) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  if (result !== undefined) console.log(JSON.stringify(result));
}
