// `castkit view` as a person uses it: started on files, its URL opened in headless Chromium,
// the page checked for what castkit itself reports (info counts, validate findings, poses).
// Run by CTest (Viewer.ViewCommand) with CASTKIT, VIEWER_NODE_MODULES, SOURCE_DIR, ARTIFACTS.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  canvasPixels, expectPoseOfCastkit, launchChromium, loadPlaywright, openPage, screenshot, startView,
  stopView, waitForLoad,
} from './browser.mjs';

const castkit = process.env.CASTKIT;
const source = process.env.SOURCE_DIR;
const artifacts = process.env.ARTIFACTS;
const examples = join(source, 'examples', 'data');
let browser;

before(async () => { browser = await launchChromium(loadPlaywright(process.env.VIEWER_NODE_MODULES)); });
after(async () => { await browser?.close(); });

// Opens `castkit view FILES` in a page; `check` gets the page; the view must stop with `code`.
async function viewing(files, check, { code = 0, cwd = examples } = {}) {
  const view = await startView(castkit, files, cwd);
  try {
    const { page, errors } = await openPage(browser, view.url);
    await waitForLoad(page);
    await check(page, errors);
    await page.close();
  } finally {
    assert.equal(await stopView(view), code, 'castkit view exit code after Ctrl-C');
  }
}

async function count(page, name) {
  return Number(await page.textContent(`#count-${name}`));
}

// The counts `castkit info` prints for a file.
function infoCounts(file) {
  const text = execFileSync(castkit, ['info', file], { cwd: examples, encoding: 'utf8' });
  const sum = (re) => [...text.matchAll(re)].reduce((n, m) => n + Number(m[1]), 0);
  return { meshes: sum(/: (\d+) meshes/g), bones: sum(/skeleton: (\d+) bones/g), animations: (text.match(/animation \d+ '/g) ?? []).length };
}

async function setToggles(page, { skeleton, grid }) {
  await page.setChecked('#skeleton', skeleton);
  await page.setChecked('#grid', grid);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

for (const file of ['character.cast', 'wave.cast', 'scene.cast']) {
  test(`every bundled example shows: ${file}`, async () => {
    await viewing([file], async (page, errors) => {
      await screenshot(page, artifacts, `view-${file}`);
      assert.deepEqual(errors, []);
      assert.equal(await page.isVisible('#error'), false);
      // Not blank: with the grid off, the mesh (or the joints of an animation's skeleton) is drawn.
      await setToggles(page, { skeleton: true, grid: false });
      const { lit, total } = await canvasPixels(page);
      const expected = infoCounts(file);
      const least = expected.meshes > 0 ? total * 0.002 : 40;
      assert.ok(lit > least, `only ${lit} of ${total} pixels drawn`);
      if (expected.meshes > 0) assert.equal(await count(page, 'meshes'), expected.meshes);
      assert.equal(await count(page, 'animations'), expected.animations);
      assert.match(await page.textContent('#files'), new RegExp(`${file}: cast v1`));
    });
  });
}

test('a model and its animation: skeleton, timeline, markers, play, scrub to castkit pose', async () => {
  await viewing(['character.cast', 'wave.cast'], async (page, errors) => {
    assert.equal(await count(page, 'meshes'), 1);
    assert.equal(await count(page, 'bones'), 3);
    assert.equal(await count(page, 'animations'), 1);
    assert.equal(await count(page, 'errors'), 0);
    // The notification track's keys (frames 7 and 22) as markers on the timeline.
    const markers = await page.$$eval('.marker', (m) => m.map((e) => `${e.dataset.name}@${e.dataset.frame}`));
    assert.deepEqual(markers, ['footstep@7', 'footstep@22']);
    await setToggles(page, { skeleton: false, grid: false });
    const mesh = await canvasPixels(page);
    await setToggles(page, { skeleton: true, grid: false });
    assert.notEqual((await canvasPixels(page)).digest, mesh.digest, 'the skeleton overlay draws');
    await screenshot(page, artifacts, 'view-character-wave');

    // Bone names on hover.
    const head = await page.evaluate(() => window.castkitViewer.boneScreenPosition('head'));
    const box = await page.locator('#view').boundingBox();
    await page.mouse.move(box.x + head.x, box.y + head.y);
    await page.waitForSelector('#tooltip:not([hidden])');
    assert.equal(await page.textContent('#tooltip'), 'head');

    // Playing changes the pixels.
    await page.fill('#scrub', '0');
    const still = await canvasPixels(page);
    await page.click('#play');
    await page.waitForFunction(() => window.castkitViewer.timeline.frame > 8);
    await page.click('#play');
    assert.notEqual((await canvasPixels(page)).digest, still.digest, 'playing moves the model');

    // Scrubbing to frame F shows every bone where `castkit pose` puts it.
    for (const frame of [5, 12, 20]) {
      await expectPoseOfCastkit(page, { castkit, model: 'character.cast', animation: 'wave.cast', frame, cwd: examples });
      assert.equal(await page.textContent('#frame'), `${frame} / 30`);
    }
    await screenshot(page, artifacts, 'view-character-wave-frame-20');
    assert.deepEqual(errors, []);
  });
});

test('SEModel and SEAnim: the pair converted by castkit shows the same poses', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'castkit-view-'));
  execFileSync(castkit, ['convert', join(examples, 'character.cast'), join(dir, 'character.semodel')]);
  execFileSync(castkit, ['convert', join(examples, 'wave.cast'), join(dir, 'wave.seanim')]);
  await viewing(['character.semodel', 'wave.seanim'], async (page, errors) => {
    assert.equal(await count(page, 'animations'), 1);
    await expectPoseOfCastkit(page, { castkit, model: 'character.semodel', animation: 'wave.seanim', frame: 12, cwd: dir });
    assert.deepEqual(errors, []);
  }, { cwd: dir });
});

test('dropping an animation on the page adds it to the shown model', async () => {
  const wave = [...readFileSync(join(examples, 'wave.cast'))];
  await viewing(['character.cast'], async (page, errors) => {
    assert.equal(await count(page, 'animations'), 0);
    await page.evaluate((bytes) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], 'wave.cast'));
      document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, wave);
    await waitForLoad(page, 2);
    assert.equal(await count(page, 'animations'), 1);
    assert.equal(await count(page, 'files'), 2);
    assert.deepEqual(errors, []);
  });
});

test('blend-shape sliders move the mesh', async () => {
  await viewing([join(source, 'tests', 'fixtures', 'gltf', 'morph.glb')], async (page, errors) => {
    const sliders = await page.$$('#shapes input[type=range]');
    assert.ok(sliders.length > 0, 'a slider per blend shape');
    await setToggles(page, { skeleton: false, grid: false });
    const before = await canvasPixels(page);
    await sliders[0].fill('1');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.notEqual((await canvasPixels(page)).digest, before.digest);
    assert.deepEqual(errors, []);
  });
});

test('the side panel lists what castkit validate reports', async () => {
  const edge = join(source, 'tests', 'fixtures', 'cast', 'edge');
  for (const file of ['trailing-bytes.cast', 'duplicate-property.cast']) {
    const report = JSON.parse(execFileSync(castkit, ['validate', '--json', file], { cwd: edge, encoding: 'utf8' }));
    const expected = report.files[0].diagnostics.map((d) => `${d.rule} ${d.offset} ${d.message}`);
    assert.ok(expected.length > 0);
    await viewing([file], async (page) => {
      const shown = await page.evaluate(() => window.castkitViewer.state.scene.diagnostics.map((d) => `${d.id} ${d.offset} ${d.message}`));
      assert.deepEqual(shown, expected);
      assert.equal(await page.$$eval('#diagnostics .diagnostic.warning', (items) => items.length), expected.length);
    }, { cwd: edge });
  }
});

// The status of a request sent exactly as given (fetch() would set its own Host header).
function status(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers }, (response) => { response.resume(); resolve(response.statusCode); });
    request.on('error', reject);
    request.end(body);
  });
}

test('castkit view answers this machine\'s pages only', async () => {
  const view = await startView(castkit, ['character.cast'], examples);
  try {
    const port = new URL(view.url).port;
    const scene = `${view.url}api/scene`;
    assert.equal(await status(scene), 200);
    assert.equal(await status(scene, { headers: { Host: `localhost:${port}` } }), 200);
    // A page reached through another name (DNS rebinding) is refused.
    assert.equal(await status(scene, { headers: { Host: `attacker.example:${port}` } }), 403);
    // An upload a page of another site could send without a preflight is refused.
    const upload = (type) => status(`${view.url}api/files?name=wave.cast`, {
      method: 'POST', body: readFileSync(join(examples, 'wave.cast')), headers: { 'Content-Type': type },
    });
    assert.equal(await upload('text/plain'), 403);
    assert.equal(await upload('application/octet-stream'), 200);
    // Nothing but the page and the scene is served.
    for (const path of ['character.cast', 'etc/passwd', '../character.cast', 'api/files'])
      assert.equal(await status(view.url + path), 404, path);
  } finally {
    assert.equal(await stopView(view), 0);
  }
});

test('a corrupt file shows castkit\'s error in the page, not a blank page', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'castkit-view-'));
  writeFileSync(join(dir, 'broken.cast'), readFileSync(join(examples, 'character.cast')).subarray(0, 200));
  await viewing(['broken.cast'], async (page) => {
    await page.waitForSelector('#error:not([hidden])');
    const text = await page.textContent('#error');
    assert.match(text, /broken\.cast: offset 0x[0-9a-f]+: root\[0\]\/model\[0\]: .*\[cast\.[a-z-]+\]/);
    await screenshot(page, artifacts, 'view-corrupt');
  }, { cwd: dir, code: 1 });
});
