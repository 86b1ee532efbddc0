// Shared by the viewer tests: Debian's Chromium driven by playwright-core (no browser
// download), `castkit view` started as a user starts it, and what a person checks on the page.
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function loadPlaywright(nodeModules) {
  return createRequire(join(nodeModules, 'noop.js'))('playwright-core');
}

// The flags a root, offline, headless machine needs (no sandbox, no background networking).
export async function launchChromium(playwright) {
  return playwright.chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
  });
}

// Starts `castkit view FILE... --no-open` and resolves with the address it printed (`url`, with
// its access token), the server's `origin` ("http://127.0.0.1:PORT/"), the `token` and the process.
export function startView(castkit, files, cwd, { open = false, env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const args = ['view', ...files, ...(open ? [] : ['--no-open'])];
    const child = spawn(castkit, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    const timer = setTimeout(() => reject(new Error(`castkit view printed no URL: ${out}${err}`)), 15000);
    child.stderr.on('data', (d) => { err += d; });
    child.stdout.on('data', (d) => {
      out += d;
      const match = out.match(/(http:\/\/127\.0\.0\.1:\d+\/)\?token=([0-9a-f]+)/);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[0], origin: match[1], token: match[2], child, stderr: () => err });
      }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`castkit view exited ${code}: ${err}`)); });
  });
}

// Stops `castkit view` as Ctrl-C does and resolves with its exit code (or the signal that
// ended it already).
export function stopView(view) {
  return new Promise((resolve) => {
    view.child.removeAllListeners('exit');
    if (view.child.exitCode !== null || view.child.signalCode !== null) {
      resolve(view.child.exitCode ?? view.child.signalCode);
      return;
    }
    view.child.on('exit', (code) => resolve(code));
    view.child.kill('SIGINT');
  });
}

// A page that records console errors and uncaught exceptions.
export async function openPage(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
  const errors = [];
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(url);
  return { page, errors };
}

// Waits until the page has loaded `loads` times (each file list change is one load).
export async function waitForLoad(page, loads = 1) {
  await page.waitForFunction((n) => window.castkitViewer?.state.loads >= n, loads, { timeout: 30000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

// Pixels of the 3D view that differ from its background, and a digest of the whole view.
export async function canvasPixels(page) {
  return page.evaluate(() => {
    const source = document.getElementById('view');
    const copy = document.createElement('canvas');
    copy.width = source.width; copy.height = source.height;
    const context = copy.getContext('2d');
    context.drawImage(source, 0, 0);
    const data = context.getImageData(0, 0, copy.width, copy.height).data;
    let lit = 0, digest = 0;
    for (let i = 0; i < data.length; i += 4) {
      const d = Math.abs(data[i] - 0x20) + Math.abs(data[i + 1] - 0x23) + Math.abs(data[i + 2] - 0x2a);
      if (d > 24) lit += 1;
      digest = (digest * 31 + data[i] * 7 + data[i + 1] * 3 + data[i + 2]) >>> 0;
    }
    return { lit, digest, total: data.length / 4 };
  });
}

export async function screenshot(page, dir, name) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.png`), await page.screenshot());
}

// `castkit pose --json` at `frame` (an additive animation layered on `base`, when given): each
// bone's world translation and rotation.
function castkitPose(castkit, model, animation, frame, cwd, base) {
  const layered = base ? ['--base', base] : [];
  const text = execFileSync(castkit, ['pose', '--model', model, '--anim', animation, '--frame', String(frame), '--json', ...layered], { cwd });
  return JSON.parse(text).bones;
}

// Scrubs the page's timeline to `frame` and checks that every bone is drawn where
// `castkit pose --model MODEL --anim ANIMATION --frame FRAME [--base BASE]` puts it (files
// relative to `cwd`).
export async function expectPoseOfCastkit(page, { castkit, model, animation, frame, cwd, base }) {
  await page.fill('#scrub', String(frame));
  for (const bone of castkitPose(castkit, model, animation, frame, cwd, base)) {
    const shown = await page.evaluate((n) => window.castkitViewer.boneWorldPosition(n), bone.name);
    assert.ok(shown, `no bone ${bone.name} in the page`);
    for (let i = 0; i < 3; i++)
      assert.ok(Math.abs(shown[i] - bone.world.t[i]) < 1e-4, `${bone.name} at ${frame}: ${shown} vs ${bone.world.t}`);
  }
}
