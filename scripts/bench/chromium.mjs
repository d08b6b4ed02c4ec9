// The one Chromium both Playwright and Lighthouse drive: Debian's, never a downloaded one. The flags
// keep the browser from doing its own background traffic, which would muddy byte counts and timings.
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
