// The README's picture of the example character: `castkit view examples/data/hero/hero.gltf`
// in Debian's headless Chromium (driven by npm's playwright-core, as the viewer tests do), the
// walk paused at frame 4, saved as docs/images/hero.png. Run from the repository's root after
// building the CLI with the viewer:
//   node scripts/screenshot_example.mjs [BUILD_DIR]      (default: build)
import { join, resolve } from 'node:path';
import {
  launchChromium, loadPlaywright, openPage, startView, stopView, waitForLoad,
} from '../tests/viewer/browser.mjs';

const build = resolve(process.argv[2] ?? 'build');
const castkit = join(build, 'tools', 'castkit', 'castkit');
const nodeModules = join(build, 'tools', 'castkit', 'viewer-page', 'node_modules');
const out = resolve('docs', 'images', 'hero.png');

const browser = await launchChromium(loadPlaywright(nodeModules));
const view = await startView(castkit, ['hero.gltf'], resolve('examples', 'data', 'hero'));
try {
  const { page, errors } = await openPage(browser, view.url);
  await page.setViewportSize({ width: 960, height: 600 });
  await waitForLoad(page);
  await page.setChecked('#skeleton', false);
  await page.selectOption('#animations', { index: 0 });  // walk
  await page.fill('#scrub', '4');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: out });
  if (errors.length > 0) throw new Error(`the page reported: ${errors.join('\n')}`);
  console.log(`wrote ${out}`);
} finally {
  await stopView(view);
  await browser.close();
}
