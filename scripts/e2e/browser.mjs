// Headless Chromium from Debian, driven by playwright-core (never `npx playwright install`).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { sandboxEnv } from './editor.mjs';

export const CHROMIUM = process.env.QUIVER_CHROMIUM ?? '/usr/bin/chromium';

/** Launches Chromium with its profile, HOME and XDG folders under `dir`. */
export async function launchBrowser(dir) {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}: run \`apt-get install -y chromium\` (as root), or set QUIVER_CHROMIUM to a Chromium binary.`);
  }
  const profile = join(dir, 'chromium-profile');
  mkdirSync(profile, { recursive: true });
  const env = sandboxEnv(join(dir, 'chromium'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    env,
    viewport: { width: 1400, height: 900 },
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
    ],
  });
  return context;
}
