// How a game's world map behaves in `castkit view` (issue 59): generated maps of 10,000 and
// 100,000 instances (bench/make_map.cpp: 50 models of 2k-20k triangles, a texture each) served
// by `castkit view`, drawn with EXT_mesh_gpu_instancing (one InstancedMesh per distinct mesh, the
// default for maps) against `castkit view --no-gpu-instancing` (one three.js mesh per instance).
// For each: the time from opening the page to its first frame (castkit reading the map and
// exporting the glb, three.js parsing it, the first draw), then the camera orbiting the map for
// --frames frames: the median time between two frames, and the median time the page's
// renderer.render() call takes (the main thread's share of a frame). Headless Chromium draws
// with SwiftShader (software GL), so every figure is processor time.
// Prints a Markdown table and writes it to BUILD/bench-viewer-map.md.
//   node bench/viewer_map_bench.mjs BUILD [--instances 10000,100000] [--frames 60] [--models 50]
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium, loadPlaywright, startView, stopView } from '../tests/viewer/browser.mjs';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    instances: { type: 'string', default: '10000,100000' },
    frames: { type: 'string', default: '60' },
    models: { type: 'string', default: '50' },
    // The models' sizes: small by default, since SwiftShader spends its time on triangles (the
    // generator's own 2k-20k make a 100,000-instance map 1.1 billion triangles a frame) where
    // a GPU spends it on draw calls, the cost instancing removes.
    'min-triangles': { type: 'string', default: '62' },
    'max-triangles': { type: 'string', default: '250' },
    // A frame budget: a mode that cannot draw --frames frames in this many seconds reports the
    // frames it drew.
    seconds: { type: 'string', default: '120' },
  },
});
const build = resolve(positionals[0] ?? 'build');
const castkit = join(build, 'tools', 'castkit', 'castkit');
const makeMap = join(build, 'bench', 'castkit_make_map');
const modules = join(build, 'tools', 'castkit', 'viewer-page', 'node_modules');

// The map of `count` instances, generated once into BUILD/bench/viewer-map-COUNT/.
function mapOf(count) {
  const sizes = ['--min-triangles', values['min-triangles'], '--max-triangles', values['max-triangles']];
  const dir = join(build, 'bench', `viewer-map-${count}-${values.models}x${values['min-triangles']}-${values['max-triangles']}`);
  if (!existsSync(join(dir, 'map.cast')))
    execFileSync(makeMap, [dir, '--instances', String(count), '--models', values.models, ...sizes], { stdio: 'ignore' });
  return dir;
}

// Opens `castkit view map.cast [--no-gpu-instancing]` and measures the page.
async function measure(browser, dir, instanced) {
  const view = await startView(castkit, ['map.cast', ...(instanced ? [] : ['--no-gpu-instancing'])], dir);
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
    const start = performance.now();
    await page.goto(view.url, { waitUntil: 'commit', timeout: 600000 });
    await page.waitForFunction(() => window.castkitViewer?.state.loads >= 1, null, { timeout: 600000 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const loadMs = performance.now() - start;
    const error = await page.evaluate(() => window.castkitViewer.state.error);
    if (error) throw new Error(error);
    const orbit = await page.evaluate(orbitFrames, { frames: Number(values.frames), seconds: Number(values.seconds) });
    await page.close();
    return { loadMs, ...orbit };
  } finally {
    await stopView(view);
  }
}

// In the page: turns the camera around the map's centre a little every frame, as a person
// dragging the orbit control does, and times each frame and each renderer.render() call.
function orbitFrames({ frames, seconds }) {
  const { stage } = window.castkitViewer;
  const render = stage.renderer.render.bind(stage.renderer);
  const renderMs = [];
  stage.renderer.render = (scene, camera) => {
    const start = performance.now();
    render(scene, camera);
    renderMs.push(performance.now() - start);
  };
  const calls = () => stage.renderer.info.render.calls;
  const target = stage.controls.target.clone();
  const offset = stage.camera.position.clone().sub(target);
  const step = (2 * Math.PI) / 240;
  return new Promise((resolve) => {
    const stamps = [];
    const deadline = performance.now() + seconds * 1000;
    const tick = (now) => {
      stamps.push(now);
      if (stamps.length > frames || now > deadline) {
        const gaps = stamps.slice(1).map((t, i) => t - stamps[i]);
        const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
        resolve({ frames: gaps.length, frameMs: median(gaps), renderMs: median(renderMs), calls: calls(), drawn: stage.drawn() });
        return;
      }
      offset.applyAxisAngle(stage.camera.up, step);
      stage.camera.position.copy(target).add(offset);
      stage.controls.update();  // its 'change' asks the page for a frame
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

const browser = await launchChromium(loadPlaywright(modules));
const rows = [];
for (const count of values.instances.split(',').map(Number)) {
  const dir = mapOf(count);
  for (const instanced of [true, false]) {
    const result = await measure(browser, dir, instanced);
    rows.push({ count, instanced, ...result });
    console.error(JSON.stringify(rows.at(-1)));
  }
}
await browser.close();

const version = execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8' }).trim();
const ms = (value) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
const table = [
  `castkit view on a generated map (${values.models} models; ${version}, headless, SwiftShader software GL, 1100×700; ` +
    `the camera orbiting for ${values.frames} frames, medians):`,
  '',
  '| Instances | Drawn as | Draw calls per frame | First frame | Frame time | renderer.render() | Frames/s |',
  '|---|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.count.toLocaleString('en')} | ${r.instanced ? `EXT_mesh_gpu_instancing (${r.drawn.instancedMeshes} InstancedMesh)` : `--no-gpu-instancing (${r.drawn.meshes.toLocaleString('en')} meshes)`} | ` +
    `${r.calls.toLocaleString('en')} | ${(r.loadMs / 1000).toFixed(1)} s | ${ms(r.frameMs)} | ${ms(r.renderMs)} | ${(1000 / r.frameMs).toFixed(1)}${r.frames < Number(values.frames) ? ` (${r.frames} frames in ${values.seconds} s)` : ''} |`),
  '',
].join('\n');
writeFileSync(join(build, 'bench-viewer-map.md'), table);
console.log(table);
