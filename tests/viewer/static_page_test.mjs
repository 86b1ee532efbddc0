// The static viewer page (`make viewer`: viewer/dist/) as a person uses it with no install:
// index.html opened from disk in headless Chromium, files dropped on it, castkit running as
// WebAssembly inside the page. Run by `make test` (test-viewer) with CASTKIT, SOURCE_DIR,
// ARTIFACTS and VIEWER_NODE_MODULES.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  canvasPixels, expectPoseOfCastkit, launchChromium, loadPlaywright, openPage, screenshot, waitForLoad,
} from './browser.mjs';

const castkit = process.env.CASTKIT;
const source = process.env.SOURCE_DIR;
const artifacts = process.env.ARTIFACTS;
const examples = join(source, 'examples', 'data');
const pageUrl = pathToFileURL(join(source, 'viewer', 'dist', 'index.html')).href;
let browser;

before(async () => { browser = await launchChromium(loadPlaywright(process.env.VIEWER_NODE_MODULES)); });
after(async () => { await browser?.close(); });

// Drops `files` (paths) on the page at once, as a file manager does.
async function drop(page, files) {
  const payload = files.map((file) => ({ name: basename(file), bytes: [...readFileSync(file)] }));
  await page.evaluate((items) => {
    const transfer = new DataTransfer();
    for (const { name, bytes } of items) transfer.items.add(new File([new Uint8Array(bytes)], name));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, payload);
}

async function opened() {
  const { page, errors } = await openPage(browser, pageUrl);
  await waitForLoad(page, 1);  // the empty page
  return { page, errors };
}

async function count(page, name) {
  return Number(await page.textContent(`#count-${name}`));
}

test('the page opened from disk shows a dropped SEModel and SEAnim pair, animated', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'castkit-static-'));
  execFileSync(castkit, ['convert', join(examples, 'character.cast'), join(dir, 'character.semodel')]);
  execFileSync(castkit, ['convert', join(examples, 'wave.cast'), join(dir, 'wave.seanim')]);
  const { page, errors } = await opened();
  await drop(page, [join(dir, 'character.semodel'), join(dir, 'wave.seanim')]);
  await waitForLoad(page, 2);
  assert.equal(await count(page, 'files'), 2);
  assert.equal(await count(page, 'meshes'), 1);
  assert.equal(await count(page, 'bones'), 3);
  assert.equal(await count(page, 'animations'), 1);
  await page.setChecked('#grid', false);
  await page.fill('#scrub', '0');
  const still = await canvasPixels(page);
  assert.ok(still.lit > still.total * 0.002, 'the model is drawn');
  await page.click('#play');
  await page.waitForFunction(() => window.castkitViewer.timeline.frame > 8);
  await page.click('#play');
  assert.notEqual((await canvasPixels(page)).digest, still.digest, 'playing moves the model');
  for (const frame of [5, 12, 20])
    await expectPoseOfCastkit(page, { castkit, model: 'character.semodel', animation: 'wave.seanim', frame, cwd: dir });
  await screenshot(page, artifacts, 'static-semodel-seanim');
  assert.deepEqual(errors, []);
  await page.close();
});

// The bundled rig, its walk and the additive lean dropped together: picking the walk as the
// lean's base (castkit in WebAssembly layers it) draws every bone where `castkit pose --base`
// puts it.
test('an additive clip dropped with a base clip is layered on the picked base', async () => {
  const hero = join(examples, 'hero');
  const { page, errors } = await opened();
  await drop(page, ['hero_rig.cast', 'hero_walk.cast', 'hero_lean.cast'].map((f) => join(hero, f)));
  await waitForLoad(page, 2);
  assert.equal(await page.isVisible('#layering'), true);
  const animations = await page.$$eval('#animations option', (options) => options.map((o) => o.textContent));
  await page.selectOption('#animations', String(animations.findIndex((text) => text.startsWith('lean '))));
  await page.selectOption('#base', 'hero_walk.cast');
  await waitForLoad(page, 3);
  assert.deepEqual(await page.evaluate(() => window.castkitViewer.state.scene.base), { file: 'hero_walk.cast', frame: null });
  for (const frame of [4, 17])
    await expectPoseOfCastkit(page, {
      castkit, model: 'hero_rig.cast', animation: 'hero_lean.cast', frame, cwd: hero, base: 'hero_walk.cast',
    });
  assert.deepEqual(errors, []);
  await page.close();
});

for (const file of ['character.cast', 'wave.cast', 'scene.cast']) {
  test(`a dropped bundled example shows: ${file}`, async () => {
    const { page, errors } = await opened();
    // A scene of Instances needs the file it instances dropped beside it, as on disk.
    const files = file === 'scene.cast' ? [join(examples, 'character.cast'), join(examples, file)] : [join(examples, file)];
    await drop(page, files);
    await waitForLoad(page, 2);
    assert.equal(await page.isVisible('#error'), false, await page.textContent('#error'));
    await page.setChecked('#grid', false);
    const { lit } = await canvasPixels(page);
    assert.ok(lit > 40, `${lit} pixels drawn`);
    await screenshot(page, artifacts, `static-${file}`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('a model dropped with its textures embeds them, as castkit convert does', async () => {
  const { page, errors } = await opened();
  const textures = join(examples, 'textures');
  await drop(page, [join(examples, 'character.cast'), join(textures, 'skin_albedo.png'), join(textures, 'skin_normal.png')]);
  await waitForLoad(page, 2);
  assert.equal(await page.isVisible('#error'), false, await page.textContent('#error'));
  const images = await page.evaluate(() => window.castkitViewer.state.gltf.parser.json.images?.length ?? 0);
  assert.equal(images, 2);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a corrupt file dropped on the page shows castkit\'s error', async () => {
  const { page } = await opened();
  await page.evaluate((bytes) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(bytes)], 'broken.cast'));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, [...readFileSync(join(examples, 'character.cast')).subarray(0, 200)]);
  await waitForLoad(page, 2);
  await page.waitForSelector('#error:not([hidden])');
  assert.match(await page.textContent('#error'), /broken\.cast: offset 0x[0-9a-f]+: root\[0\]\/model\[0\]: .*\[cast\.[a-z-]+\]/);
  await screenshot(page, artifacts, 'static-corrupt');
  await page.close();
});
