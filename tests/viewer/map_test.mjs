// `castkit view` on a game's world map (issue 59): a generated map of 500 instances of 3 models
// (bench/make_map.cpp, as the rippers' writer writes maps) is drawn with EXT_mesh_gpu_instancing,
// one InstancedMesh and one draw call per distinct mesh, the camera framing every instance;
// `--no-gpu-instancing` draws the same map (the same pixels) one mesh per instance.
// Run by CTest (Viewer.Map) with CASTKIT, MAKE_MAP, VIEWER_NODE_MODULES, ARTIFACTS.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  canvasPixels, launchChromium, loadPlaywright, openPage, screenshot, startView, stopView, waitForLoad,
} from './browser.mjs';

const castkit = process.env.CASTKIT;
const artifacts = process.env.ARTIFACTS;
const instances = 500, models = 3;
let browser, map;
let instancedPixels;  // what the first test drew, which the second compares with

before(async () => {
  map = mkdtempSync(join(tmpdir(), 'castkit-view-map-'));
  // Small models: software GL (SwiftShader) would spend seconds a frame on realistic ones.
  execFileSync(process.env.MAKE_MAP, [map, '--instances', String(instances), '--models', String(models),
    '--min-triangles', '200', '--max-triangles', '400', '--texture-size', '16']);
  browser = await launchChromium(loadPlaywright(process.env.VIEWER_NODE_MODULES));
});
after(async () => { await browser?.close(); });

// Shows map.cast in `castkit view ARGS`, the grid and skeleton off, and gives `check` the page
// once a frame is drawn.
async function viewingMap(args, check) {
  const view = await startView(castkit, ['map.cast', ...args], map);
  try {
    const { page, errors } = await openPage(browser, view.url);
    await waitForLoad(page);
    await page.setChecked('#grid', false);
    await page.setChecked('#skeleton', false);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.deepEqual(errors, []);
    assert.equal(await page.isVisible('#error'), false, await page.textContent('#error'));
    assert.equal(Number(await page.textContent('#count-instances')), instances);
    await check(page);
    await page.close();
  } finally {
    assert.equal(await stopView(view), 0, 'castkit view exit code after Ctrl-C');
  }
}

const drawn = (page) => page.evaluate(() => ({
  ...window.castkitViewer.stage.drawn(),
  calls: window.castkitViewer.stage.renderer.info.render.calls,
}));

test('a map is drawn with EXT_mesh_gpu_instancing: one draw per distinct mesh, every instance in view', async () => {
  await viewingMap([], async (page) => {
    await screenshot(page, artifacts, 'view-map-instanced');
    assert.deepEqual(await drawn(page), { meshes: models, instancedMeshes: models, instances, calls: models });
    // The camera frames the instances' bounds, not one copy's.
    assert.deepEqual(await page.evaluate(() => window.castkitViewer.instancesInView()), { inView: instances, total: instances });
    instancedPixels = await canvasPixels(page);
    assert.ok(instancedPixels.lit > 200, `only ${instancedPixels.lit} pixels drawn`);
  });
});

test('castkit view --no-gpu-instancing draws the map one mesh per instance', async () => {
  await viewingMap(['--no-gpu-instancing'], async (page) => {
    assert.deepEqual(await drawn(page), { meshes: instances, instancedMeshes: 0, instances: 0, calls: instances });
    // The same map from the same place: the same pixels lit, within what the order of the
    // draws changes where copies overlap.
    const { lit } = await canvasPixels(page);
    assert.ok(Math.abs(lit - instancedPixels.lit) <= instancedPixels.lit * 0.05, `${lit} pixels lit, ${instancedPixels.lit} instanced`);
  });
});
