// `castkit view` as a person uses it: started on files, its URL opened in headless Chromium,
// the page checked for what castkit itself reports (info counts, validate findings, poses).
// Run by CTest (Viewer.ViewCommand) with CASTKIT, VIEWER_NODE_MODULES, SOURCE_DIR, ARTIFACTS.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import readline from 'node:readline';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
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

// The example character (examples/data/hero, scripts/make_example.sh) in every format castkit
// writes: the mesh drawn, the 21 bones, both animations, no error. Markers show where the
// format keeps the walk's notification track.
const hero = join(examples, 'hero');
for (const [files, markers] of [
  [['hero.glb'], true], [['hero.gltf'], true], [['hero.dmf'], false], [['hero.dmf.json'], false],
  [['hero.k3d'], false], [['hero.semodel', 'hero_walk.seanim', 'hero_idle.seanim'], true],
  [['hero.cast', 'hero_walk.cast', 'hero_idle.cast'], true]]) {
  test(`the example character shows: ${files.join(' + ')}`, async () => {
    await viewing(files, async (page, errors) => {
      await screenshot(page, artifacts, `view-${files[0]}`);
      assert.deepEqual(errors, []);
      assert.equal(await count(page, 'meshes'), 1);
      assert.equal(await count(page, 'bones'), 21);
      assert.equal(await count(page, 'animations'), 2);
      assert.equal(await count(page, 'errors'), 0);
      // The images a glb or DMF embeds are kept (they travel with the document).
      const dropped = await page.evaluate(() => window.castkitViewer.state.scene.diagnostics
        .filter((d) => d.message.includes('not kept')).map((d) => d.text));
      assert.deepEqual(dropped, []);
      await setToggles(page, { skeleton: false, grid: false });
      const { lit, total } = await canvasPixels(page);
      assert.ok(lit > total * 0.02, `only ${lit} of ${total} pixels drawn`);
      const shown = await page.$$eval('.marker', (m) => m.map((e) => `${e.dataset.name}@${e.dataset.frame}`));
      assert.deepEqual(shown, markers ? ['footstep@0', 'footstep@15'] : []);
    }, { cwd: hero });
  });
}

// The bundled rig (an IK leg, a head constraint) with the walk and the additive lean: the page
// offers the bases a user can layer the lean on, and on each the glb castkit exports (IK and
// constraint solved into plain channels, the lean layered on the base) is drawn, bone by bone,
// where `castkit pose --base` puts it.
test('an additive clip layered on a picked base shows castkit pose --base on a rig', async () => {
  await viewing(['hero_rig.cast', 'hero_walk.cast', 'hero_lean.cast'], async (page, errors) => {
    assert.equal(await page.isVisible('#layering'), true);
    const offered = await page.$$eval('#base option', (options) => options.map((o) => o.value));
    assert.deepEqual(offered, ['', 'hero_walk.cast']);
    const animations = await page.$$eval('#animations option', (options) => options.map((o) => o.textContent));
    const lean = animations.findIndex((text) => text.startsWith('lean '));
    assert.ok(lean >= 0, `no lean among ${animations}`);
    await page.selectOption('#animations', String(lean));
    for (const [base, frameOfBase, argument] of [
      ['hero_walk.cast', '', 'hero_walk.cast'], ['hero_walk.cast', '12', 'hero_walk.cast@12'], ['', '', null]]) {
      const loads = await page.evaluate(() => window.castkitViewer.state.loads);
      await page.selectOption('#base', base);
      await waitForLoad(page, loads + 1);
      if (frameOfBase) {
        await page.fill('#base-frame', frameOfBase);
        await page.dispatchEvent('#base-frame', 'change');
        await waitForLoad(page, loads + 2);
      }
      const shown = await page.evaluate(() => window.castkitViewer.state.scene.base);
      assert.deepEqual(shown, { file: base || null, frame: frameOfBase ? Number(frameOfBase) : null });
      assert.match(await page.inputValue('#animations'), new RegExp(`^${lean}$`), 'the lean stays shown');
      for (const frame of [0, 9, 20])
        await expectPoseOfCastkit(page, {
          castkit, model: 'hero_rig.cast', animation: 'hero_lean.cast', frame, cwd: hero, base: argument,
        });
    }
    assert.deepEqual(errors, []);
  }, { cwd: hero });
});

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

// A request sent exactly as given (fetch() would set its own Host header): its status, headers
// and body.
function request(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const sent = http.request(url, { method, headers, agent: false }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

async function status(url, options) {
  return (await request(url, options)).status;
}

// `path` of the server, with the access token in the query.
function withToken(view, path) {
  const url = new URL(path, view.origin);
  url.searchParams.set('token', view.token);
  return url.href;
}

function upload(view, name, body, headers = {}) {
  return request(withToken(view, `api/files?name=${encodeURIComponent(name)}`), {
    method: 'POST', body, headers: { 'Content-Type': 'application/octet-stream', ...headers },
  });
}

// Runs `check` on a `castkit view FILES` started in `cwd`, which must then stop with 0.
async function serving(files, cwd, check) {
  const view = await startView(castkit, files, cwd);
  try {
    await check(view);
  } finally {
    assert.equal(await stopView(view), 0, 'castkit view exit code after Ctrl-C');
  }
}

// A browser's arguments are readable by every local account (/proc/PID/cmdline) while it runs:
// the token must not be among them. castkit view opens the browser ($BROWSER here, a script
// that records its argument) on a page only its owner can read, which sends it on.
test('the browser is opened on a private page that leads to the viewer, the token on no command line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'castkit-browser-'));
  const record = join(dir, 'argument');
  const opener = join(dir, 'browser.sh');
  writeFileSync(opener, `#!/bin/sh\nprintf '%s' "$1" > '${record}.part' && mv '${record}.part' '${record}'\n`, { mode: 0o755 });
  const view = await startView(castkit, ['character.cast'], examples, { open: true, env: { ...process.env, BROWSER: opener } });
  let launch;
  try {
    for (let i = 0; i < 150 && !existsSync(record); i++) await new Promise((r) => setTimeout(r, 100));
    launch = readFileSync(record, 'utf8');
    assert.match(launch, /castkit-view-[0-9a-f]+\/open\.html$/);
    assert.ok(!launch.includes(view.token), 'the token is on the browser\'s command line');
    assert.equal(statSync(dirname(launch)).mode & 0o777, 0o700, 'the page\'s folder is private');
    assert.ok(readFileSync(launch, 'utf8').includes(view.url));
    const page = await browser.newPage();
    await page.goto(pathToFileURL(launch).href);
    await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\//);
    await waitForLoad(page);
    assert.equal(await count(page, 'meshes'), 1);  // castkit info: 1 mesh
    await page.close();
  } finally {
    assert.equal(await stopView(view), 0);
  }
  assert.ok(!existsSync(launch), 'the page is removed when castkit view stops');
});

test('castkit view answers this machine\'s pages only', async () => {
  await serving(['character.cast'], examples, async (view) => {
    const port = new URL(view.origin).port;
    const scene = withToken(view, 'api/scene');
    assert.equal(await status(scene), 200);
    assert.equal(await status(scene, { headers: { Host: `localhost:${port}` } }), 200);
    // A page reached through another name (DNS rebinding) is refused.
    assert.equal(await status(scene, { headers: { Host: `attacker.example:${port}` } }), 403);
    // An upload a page of another site could send without a preflight is refused.
    const wave = readFileSync(join(examples, 'wave.cast'));
    assert.equal((await upload(view, 'wave.cast', wave, { 'Content-Type': 'text/plain' })).status, 403);
    assert.equal((await upload(view, 'wave.cast', wave)).status, 200);
    // Nothing but the page and the scene is served.
    for (const path of ['character.cast', 'etc/passwd', '../character.cast', 'api/files'])
      assert.equal(await status(withToken(view, path)), 404, path);
  });
});

test('every request needs the token of the address castkit view printed (query or cookie)', async () => {
  await serving(['character.cast'], examples, async (view) => {
    assert.ok(view.token.length >= 32, 'at least 128 bits');
    const page = await request(view.url);
    assert.equal(page.status, 200);
    const [cookie] = page.headers['set-cookie'];
    const port = new URL(view.origin).port;
    assert.equal(cookie, `castkit-view-${port}=${view.token}; HttpOnly; SameSite=Strict; Path=/`);
    const pair = cookie.split(';')[0];
    const wrong = [...view.token].map((c) => (c === '0' ? '1' : '0')).join('');
    for (const path of ['', 'viewer.js', 'api/scene', 'api/scene.glb', 'nothing-here']) {
      for (const headers of [{}, { Cookie: `castkit-view-${port}=${wrong}` }, { Cookie: `castkit-view-1=${view.token}` }]) {
        const refused = await request(view.origin + path, { headers });
        assert.equal(refused.status, 403, `${path} ${JSON.stringify(headers)}`);
        assert.match(refused.body.toString(), /^castkit view needs the token/);
      }
      assert.equal(await status(`${view.origin}${path}?token=${wrong}`), 403, path);
      assert.equal(await status(`${view.origin}${path}?token=${view.token.slice(1)}`), 403, path);
      const expected = path === 'nothing-here' ? 404 : 200;
      assert.equal(await status(view.origin + path, { headers: { Cookie: `other=1; ${pair}` } }), expected, path);
    }
    // An upload without the token adds nothing.
    const wave = readFileSync(join(examples, 'wave.cast'));
    const refused = await request(`${view.origin}api/files?name=wave.cast`, {
      method: 'POST', body: wave, headers: { 'Content-Type': 'application/octet-stream' },
    });
    assert.equal(refused.status, 403);
    const scene = JSON.parse((await request(withToken(view, 'api/scene'))).body);
    assert.deepEqual(scene.files.map((f) => f.name), ['character.cast']);
  });
});

// A glTF of one triangle whose positions are the 36 bytes of buffer `uri`.
function triangleGltf(uri) {
  return Buffer.from(JSON.stringify({
    asset: { version: '2.0' },
    buffers: [{ uri, byteLength: 36 }],
    bufferViews: [{ buffer: 0, byteLength: 36 }],
    accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [-1e6, -1e6, -1e6], max: [1e6, 1e6, 1e6] }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
    nodes: [{ mesh: 0 }],
    scenes: [{ nodes: [0] }],
    scene: 0,
  }));
}

const floats = (values) => Buffer.from(new Float32Array(values).buffer);

test('a dropped file reaches the files dropped with it, and nothing beside the model', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'castkit-view-'));
  copyFileSync(join(examples, 'character.cast'), join(dir, 'character.cast'));
  const secret = floats([1234.5, -777.25, 42.125, 9.5, 8.25, 7.75, 6.5, 5.25, 4.125]);
  writeFileSync(join(dir, 'secret.bin'), secret);
  await serving(['character.cast'], dir, async (view) => {
    const stolen = await upload(view, 'steal.gltf', triangleGltf('secret.bin'));
    assert.equal(stolen.status, 422, stolen.body.toString());
    assert.match(stolen.body.toString(), /steal\.gltf: .*secret\.bin/);
    const shown = await request(withToken(view, 'api/scene.glb'));
    assert.equal(shown.status, 200);
    assert.equal(shown.body.indexOf(secret), -1, 'the file beside the model is not served');

    // A glTF and the buffer dropped with it show together.
    const triangle = floats([0.5, 0, 0, 1.5, 0, 0, 0, 2.5, 0]);
    assert.equal((await upload(view, 'tri.bin', triangle)).status, 422, 'no scene, kept for the glTF');
    const added = await upload(view, 'tri.gltf', triangleGltf('tri.bin'));
    assert.equal(added.status, 200, added.body.toString());
    const scene = JSON.parse((await request(withToken(view, 'api/scene'))).body);
    assert.deepEqual(scene.files.map((f) => f.name), ['character.cast', 'tri.gltf']);
    assert.equal(scene.meshes, 1);
    const glb = await request(withToken(view, 'api/scene.glb'));
    assert.notEqual(glb.body.indexOf(triangle), -1, 'the dropped buffer is in the glb');
    // A name with folders is kept by its file name, in the upload folder.
    assert.equal((await upload(view, '../../tri.gltf', triangleGltf('tri.bin'))).status, 200);
    assert.equal((await upload(view, '..', triangleGltf('tri.bin'))).status, 422);
  });
});

test('a glTF dropped on the page before its buffer shows', async () => {
  const gltf = [...triangleGltf('tri.bin')];
  const bin = [...floats([0.5, 0, 0, 1.5, 0, 0, 0, 2.5, 0])];
  await viewing(['character.cast'], async (page, errors) => {
    await page.evaluate(([g, b]) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(g)], 'tri.gltf'));
      transfer.items.add(new File([new Uint8Array(b)], 'tri.bin'));
      document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, [gltf, bin]);
    await waitForLoad(page, 2);
    assert.equal(await page.isVisible('#error'), false, await page.textContent('#error'));
    assert.equal(await count(page, 'files'), 2);
    assert.equal(await count(page, 'meshes'), 1);
    // The browser logs the refusal of tri.bin as a scene (422), which the page expects.
    assert.deepEqual(errors.filter((e) => !/status of 422/.test(e)), []);
  });
});

// Peak resident memory of process `pid` so far, in MiB (Linux).
function peakMiB(pid) {
  return Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmHWM:\s+(\d+) kB/)[1]) / 1024;
}

// A gzip member of `chunks` MiB of zeros, about 1 KB per MiB: one full-flushed deflate block
// repeated (each starts from a reset state, so every copy is the same bytes). O(chunks).
function gzipBomb(chunks) {
  const zeros = Buffer.alloc(1 << 20);
  const block = zlib.deflateRawSync(zeros, { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  let crc = 0;
  for (let i = 0; i < chunks; i++) crc = zlib.crc32(zeros, crc);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE((chunks * zeros.length) % 2 ** 32, 4);
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
  return Buffer.concat([header, ...Array(chunks).fill(block), Buffer.from([3, 0]), trailer]);
}

test('compressed uploads and many ranges are refused at once, within bounded memory', async () => {
  await serving(['character.cast'], examples, async (view) => {
    const before = peakMiB(view.child.pid);
    // 2 MB inflating to 2 GiB, stopped before its body is read.
    assert.equal(zlib.gunzipSync(gzipBomb(4)).length, 4 << 20, 'a valid gzip stream');
    const bomb = gzipBomb(2048);
    const started = Date.now();
    // The answer comes before the body is sent: the server never reads it (an http client
    // writing the body meanwhile may see the connection closed under it, so send headers only).
    assert.equal(await statusBeforeBody(view, 'bomb.cast', bomb.length, 'gzip'), 415);
    assert.equal(await statusBeforeBody(view, 'bomb.cast', bomb.length, 'br'), 415);
    // The whole bomb sent: answered 415, or the connection closed while it was being sent.
    const inflated = await upload(view, 'bomb.cast', bomb, { 'Content-Encoding': 'gzip', 'Content-Length': String(bomb.length) })
      .catch((error) => {
        if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') throw error;
        return { closed: true };
      });
    assert.ok(inflated.closed || inflated.status === 415, `status ${inflated.status}`);
    // 300 ranges of the script in one request.
    const ranges = `bytes=${Array(300).fill('0-').join(',')}`;
    const many = await request(withToken(view, 'viewer.js'), { headers: { Range: ranges } });
    assert.equal(many.status, 416);
    assert.ok(many.body.length < 1024);
    const one = await request(withToken(view, 'viewer.js'), { headers: { Range: 'bytes=0-99' } });
    assert.equal(one.status, 206);
    assert.equal(one.body.length, 100);
    assert.ok(Date.now() - started < 20000, 'answered at once');
    assert.equal(await status(withToken(view, 'api/scene')), 200, 'still serving');
    const peak = peakMiB(view.child.pid);
    assert.ok(peak < 300, `peak ${peak.toFixed(0)} MiB (${before.toFixed(0)} MiB before)`);
  });
});

// The status code the server answers to an upload's request line and headers alone (a body of
// `length` bytes announced, none sent), over a raw connection.
function statusBeforeBody(view, name, length, encoding) {
  const { hostname, port } = new URL(view.origin);
  const target = new URL(withToken(view, `api/files?name=${encodeURIComponent(name)}`));
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) }, () => {
      socket.write(`POST ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
        `Content-Type: application/octet-stream\r\nContent-Encoding: ${encoding}\r\n` +
        `Content-Length: ${length}\r\n\r\n`);
    });
    let answer = '';
    socket.on('data', (data) => {
      answer += data.toString('latin1');
      const line = answer.match(/^HTTP\/1\.1 (\d{3})/);
      if (line) { socket.destroy(); resolve(Number(line[1])); }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed without an answer: ${answer}`)));
  });
}

// Opens a connection that sends the start of a request line and nothing more; resolves once
// connected, with a promise of its closing.
function stalledConnection(origin) {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) }, () => {
      socket.write('GET /api/scene HTTP/1.1\r\nHo');
      socket.resume();  // reads what the server answers, so that its closing is seen
      resolve({ socket, closed: new Promise((r) => socket.on('close', r)) });
    });
    socket.on('error', reject);
  });
}

test('16 stalled connections do not keep a request waiting, and are closed by the server', async () => {
  await serving(['character.cast'], examples, async (view) => {
    const stalled = [];
    for (let i = 0; i < 16; i++) stalled.push(await stalledConnection(view.origin));
    const started = Date.now();
    assert.equal(await status(withToken(view, 'api/scene')), 200);
    const waited = Date.now() - started;
    // The server gives up on a connection whose request head has not come after 2 s: a request
    // stuck behind them would wait that long at least.
    assert.ok(waited < 3000, `answered after ${waited} ms`);
    const timeout = new Promise((r) => setTimeout(r, 30000, 'timeout'));
    const closed = await Promise.race([Promise.all(stalled.map((c) => c.closed)), timeout]);
    assert.notEqual(closed, 'timeout', 'the server closed every stalled connection');
  });
});

// Resident memory of process `pid` now, in MiB (Linux).
function residentMiB(pid) {
  return Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/)[1]) / 1024;
}

// Sends `chunks` over a raw connection, as fast as the server takes them and until it closes
// the connection; resolves once closed with the status it answered (0 for none) and when.
function exchange(origin, chunks) {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const started = Date.now();
    let answer = '';
    const socket = net.connect({ host: hostname, port: Number(port) }, async () => {
      for (const chunk of chunks) {
        if (socket.destroyed || socket.writableEnded) break;
        if (!socket.write(chunk)) await new Promise((r) => { socket.once('drain', r); socket.once('close', r); });
      }
    });
    socket.setMaxListeners(0);
    socket.on('data', (data) => { answer += data.toString('latin1'); });
    socket.on('error', () => {});  // a reset once the server has refused the head
    socket.on('close', () => resolve({ status: Number(answer.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? 0), ms: Date.now() - started }));
  });
}

// A request head for `path` with the token and `lines` header lines more.
function headWith(view, path, lines = 0) {
  const target = new URL(withToken(view, path));
  return `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n` +
    'a: b\r\n'.repeat(lines) + 'Connection: close\r\n\r\n';
}

test('a request head past 16 KiB, 100 header lines or an 8 KiB request line is refused before it is read', async () => {
  await serving(['character.cast'], examples, async (view) => {
    const { host } = new URL(view.origin);
    const before = residentMiB(view.child.pid);
    // 2 MB of header lines and no token (cpp-httplib alone read them all: +37 MiB, kept).
    const lines = Buffer.from('a: b\r\n'.repeat(1 << 14));
    const flood = [`GET /api/scene HTTP/1.1\r\nHost: ${host}\r\n`, ...Array(20).fill(lines), '\r\n'];
    const refused = await exchange(view.origin, flood);
    const grown = residentMiB(view.child.pid) - before;
    assert.ok(refused.status === 431 || refused.status === 0, `status ${refused.status}`);
    assert.ok(refused.ms < 3000, `closed after ${refused.ms} ms`);
    assert.ok(grown < 20, `resident memory grew by ${grown.toFixed(1)} MiB (${before.toFixed(1)} MiB before)`);
    // The bounds themselves: 100 header lines pass (with Host and Connection, 102), 101 do not.
    assert.equal((await exchange(view.origin, [headWith(view, 'api/scene', 98)])).status, 200);
    assert.equal((await exchange(view.origin, [headWith(view, 'api/scene', 99)])).status, 431);
    assert.equal((await exchange(view.origin, [headWith(view, `api/scene?pad=${'x'.repeat(9000)}`)])).status, 414);
    assert.equal(await status(withToken(view, 'api/scene')), 200, 'still serving');
  });
});

// A raw connection that sends `head` one byte every `everyMs` ms; `closed` resolves with when
// the server closed it (ms after it opened) and the status it answered (0 for none).
function trickling(origin, head, everyMs) {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) }, () => {
      const started = Date.now();
      let sent = 0, answer = '';
      const timer = setInterval(() => { if (sent < head.length) socket.write(head[sent++]); }, everyMs);
      socket.on('data', (data) => { answer += data.toString('latin1'); });
      socket.on('error', () => {});
      const closed = new Promise((r) => socket.on('close', () => {
        clearInterval(timer);
        r({ ms: Date.now() - started, status: Number(answer.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? 0) });
      }));
      resolve({ socket, closed });
    });
    socket.on('error', reject);
  });
}

const within = (promise, ms) => Promise.race([promise, new Promise((r) => setTimeout(r, ms, 'timeout'))]);

test('a request head trickled a byte at a time is cut off after 2 s', async () => {
  await serving(['character.cast'], examples, async (view) => {
    // A byte every 100 ms, each well within the 5 s read timeout that alone bounded it before.
    const slow = await trickling(view.origin, headWith(view, 'api/scene', 20), 100);
    const closed = await within(slow.closed, 6000);
    slow.socket.destroy();
    assert.notEqual(closed, 'timeout', 'still open after 6 s');
    assert.equal(closed.status, 408);
    assert.ok(closed.ms >= 1900 && closed.ms < 4000, `closed after ${closed.ms} ms`);
  });
});

test('70 clients trickling their heads (the server has 64 workers) do not keep a request waiting', async () => {
  await serving(['character.cast'], examples, async (view) => {
    const slow = [];
    try {
      for (let i = 0; i < 70; i++) slow.push(await trickling(view.origin, headWith(view, 'api/scene', 20), 200));
      await new Promise((r) => setTimeout(r, 300));  // every one of them has sent a byte or two
      const started = Date.now();
      const answered = await within(status(withToken(view, 'api/scene')), 5000);
      const waited = Date.now() - started;
      assert.equal(answered, 200, `no answer in ${waited} ms`);
      assert.ok(waited < 3000, `answered after ${waited} ms`);
    } finally {
      for (const { socket } of slow) socket.destroy();
    }
  });
});

// `count` connections that send nothing, each opened again as soon as the server closes it, by
// a program of their own (node, its open-file limit raised to `files` by the shell), until
// stop(): a local program holding every waiting place of the server, no token needed.
// opened() counts the connections so far.
function silentFlood(origin, count, files) {
  const { hostname, port } = new URL(origin);
  const program = `
    const net = require('node:net');
    const readline = require('node:readline');
    const open = new Set();
    let stopped = false, opened = 0;
    const connect = () => {
      if (stopped) return;
      const socket = net.connect({ host: ${JSON.stringify(hostname)}, port: ${Number(port)} });
      opened++;
      open.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => { open.delete(socket); setImmediate(connect); });
    };
    for (let i = 0; i < ${count}; i++) connect();
    readline.createInterface({ input: process.stdin }).on('line', (line) => {
      if (line === 'stop') { stopped = true; for (const socket of open) socket.destroy(); }
      process.stdout.write(opened + '\\n', () => { if (line === 'stop') process.exit(0); });
    });`;
  const flood = spawn('sh', ['-c', `ulimit -n ${files} && exec "$0" -e "$1"`, process.execPath, program],
    { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: flood.stdout });
  const ask = (message) => new Promise((resolve) => { lines.once('line', (line) => resolve(Number(line))); flood.stdin.write(`${message}\n`); });
  const ended = new Promise((resolve) => flood.on('exit', resolve));
  return { opened: () => ask('count'), stop: async () => { const opened = await ask('stop'); await ended; return opened; } };
}

// How many descriptors a program of this user may be allowed (ulimit -Hn), which the flood needs.
const descriptorLimit = () => {
  const hard = execFileSync('sh', ['-c', 'ulimit -Hn']).toString().trim();
  return hard === 'unlimited' ? 1 << 20 : Number(hard) || 0;
};

test('2,000 silent connections, each opened again as it closes, do not keep the page unanswered', async (t) => {
  const count = Math.min(2000, descriptorLimit() - 100);
  if (count < 1000) { t.skip(`ulimit -Hn is ${descriptorLimit()}: too few descriptors for the flood`); return; }
  await serving(['character.cast'], examples, async (view) => {
    const flood = silentFlood(view.origin, count, count + 100);
    try {
      await new Promise((r) => setTimeout(r, 1000));  // every one opened, many opened again
      // Ten page requests one after another, each answered at once: before, each waited behind
      // the silent connections for 0.2 to 2 s (ten took 11 s), the flood's new connections
      // often turned away by the system before the server saw them.
      let all = 0;
      for (let i = 0; i < 10; i++) {
        const asked = Date.now();
        const answered = await within(request(withToken(view, '')), 10000);
        const waited = Date.now() - asked;
        all += waited;
        const opened = answered === 'timeout' || waited >= 1000 ? await flood.opened() : 0;
        assert.notEqual(answered, 'timeout', `no answer in ${waited} ms (${opened} connections opened)`);
        assert.equal(answered.status, 200);
        assert.ok(waited < 1000, `request ${i + 1} answered after ${waited} ms (${opened} connections opened)`);
      }
      assert.ok(all < 2000, `ten requests answered in ${all} ms`);
    } finally {
      await flood.stop();
    }
  });
});

test('castkit view keeps its copy of a file rewritten or cut short on disk', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'castkit-view-'));
  const file = join(dir, 'model.cast');
  copyFileSync(join(examples, 'character.cast'), file);
  const size = readFileSync(file).length;
  await serving(['model.cast'], dir, async (view) => {
    const shown = async () => {
      const glb = await request(withToken(view, 'api/scene.glb'));
      const scene = await request(withToken(view, 'api/scene'));
      assert.equal(glb.status, 200, glb.body.toString());
      assert.equal(scene.status, 200);
      return { glb: glb.body, scene: JSON.parse(scene.body) };
    };
    const loaded = await shown();
    truncateSync(file, 8);
    assert.deepEqual(await shown(), loaded, 'cut short');
    writeFileSync(file, Buffer.alloc(size, 0xa5));
    assert.deepEqual(await shown(), loaded, 'rewritten with garbage');
    truncateSync(file, 0);
    assert.deepEqual(await shown(), loaded, 'emptied');
    assert.equal(view.child.exitCode, null, 'still running');
    assert.equal(view.child.signalCode, null);
  });
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

// What the panel counts is what it lists, by severity; a warning of the export the page draws
// is named by the file the user gave (wave.cast's visibility curve, which glTF cannot carry),
// not by the glb the page is sent.
test('the panel counts the findings it lists and names the file the user gave', async () => {
  await viewing(['wave.cast'], async (page) => {
    const listed = await page.$$eval('#diagnostics .diagnostic', (items) =>
      items.map((item) => ({ severity: item.className.split(' ')[1], text: item.textContent })));
    const warnings = listed.filter((d) => d.severity === 'warning');
    assert.ok(warnings.length > 0, JSON.stringify(listed));
    assert.equal(await count(page, 'warnings'), warnings.length);
    assert.equal(await count(page, 'errors'), listed.filter((d) => d.severity === 'error').length);
    for (const { text } of listed) {
      assert.ok(text.startsWith('wave.cast: '), text);
      assert.ok(!text.includes('scene.glb'), text);
    }
    assert.ok(warnings.some((d) => d.text.includes('[gltf.export]')), JSON.stringify(warnings));
  });
});

// A file named on the command line that cannot be read: castkit view says so and exits 1 at
// once, serving nothing (no address printed).
test('castkit view of a missing file exits 1 and serves nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'castkit-view-'));
  const child = spawn(castkit, ['view', 'missing.cast', '--no-open'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { err += d; });
  const code = await new Promise((resolve) => {
    const timer = setTimeout(() => { child.kill('SIGINT'); resolve('still serving after 20 s'); }, 20000);
    child.on('exit', (exit) => { clearTimeout(timer); resolve(exit); });
  });
  assert.equal(code, 1, `${out}${err}`);
  assert.equal(out, '');
  assert.equal(err, 'castkit: missing.cast: no such file or folder\n');
});
