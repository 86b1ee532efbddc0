// castkit's viewer: shows what castkit computes for a set of files (a model and its
// animations) — the glb castkit exports and the description castkit gives — and takes more
// files dropped on the page. `window.castkitViewer` lets tests (and curious users) drive it.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { pickBackend } from './backend.js';
import { showBasePicker, showBlendShapes, showCounts, showDiagnostics, showFiles } from './panel.js';
import { Stage } from './stage.js';
import { Timeline } from './timeline.js';

const $ = (id) => document.getElementById(id);
const backend = pickBackend();
const stage = new Stage($('view'), $('tooltip'));
const timeline = new Timeline({
  root: $('timeline'), list: $('animations'), play: $('play'), slider: $('scrub'),
  frame: $('frame'), speed: $('speed'), loop: $('loop'), markers: $('markers'),
}, () => stage.invalidate());
const state = { scene: null, gltf: null, loads: 0, error: '' };

function showError(text) {
  state.error = text;
  $('error').textContent = text;
  $('error').hidden = !text;
}

// Fetches the glb and the scene description (which then names what the export dropped) from
// the backend and shows both.
async function refresh() {
  let buffer = null, exportError = '';
  try {
    buffer = await backend.glb();
  } catch (error) {
    exportError = error.message;
  }
  const scene = await backend.scene();
  state.scene = scene;
  showFiles($('files'), scene);
  showDiagnostics($('diagnostics'), scene);
  showBasePicker($('layering'), $('base'), $('base-frame'), scene);
  $('empty').hidden = scene.files.length > 0;
  if (!buffer) {
    showCounts($('counts'), scene, []);
    if (scene.files.length > 0) showError(exportError);
    return;
  }
  const gltf = await new GLTFLoader(offlineManager()).parseAsync(buffer, '');
  state.gltf = gltf;
  stage.show(gltf.scene);
  const shown = timeline.entries[timeline.current]?.name;
  timeline.load(gltf.scene, gltf.animations, scene.animations);
  const again = timeline.entries.findIndex((entry) => entry.name === shown);
  if (again > 0) timeline.select(again);
  showCounts($('counts'), scene, gltf.animations);
  showBlendShapes($('shapes'), gltf.scene);
}

// The page can reach no file beside the scene: a texture castkit could not embed stays a
// reference (named in the warnings) and is drawn blank instead of being fetched.
function offlineManager() {
  const manager = new THREE.LoadingManager();
  const blank = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mP8/x8AAwMCAO+ip1sAAAAASUVORK5CYII=';
  manager.setURLModifier((url) => (/^(data|blob):/.test(url) ? url : blank));
  return manager;
}

// Reads each file and adds it; one that castkit refuses shows its error and adds nothing.
// Images and glTF buffers are no scene, but both backends keep them beside the files dropped
// with them: they go first, so that a .gltf finds its .bin when it is read.
async function addFiles(files) {
  const errors = [];
  const sideFilesFirst = [...files].sort((a, b) => isSideFile(b.name) - isSideFile(a.name));
  for (const file of sideFilesFirst) {
    try {
      await backend.add(file.name, new Uint8Array(await file.arrayBuffer()));
    } catch (error) {
      if (!(isSideFile(file.name) && error.message.endsWith('[viewer.format]'))) errors.push(error.message);
    }
  }
  await load();
  if (errors.length) showError(errors.join('\n'));
}

function isSideFile(name) {
  return /\.(bin|png|jpe?g|tga|bmp|dds|psd|gif|tiff?|exr|hdr|ktx2|webp)$/i.test(name);
}

async function load() {
  showError('');
  try {
    await refresh();
  } catch (error) {
    showError(error.message);
  }
  const errors = state.scene?.errors ?? [];
  if (errors.length && !state.error) showError(errors.join('\n'));
  state.loads += 1;
}

// Layers the additive animations on the picked base and shows the result.
async function changeBase() {
  const frame = $('base-frame').value === '' ? null : Number($('base-frame').value);
  try {
    await backend.setBase($('base').value, $('base').value === '' ? null : frame);
  } catch (error) {
    showError(error.message);
    return;
  }
  await load();
}

function wireControls() {
  $('base').addEventListener('change', changeBase);
  $('base-frame').addEventListener('change', changeBase);
  $('skeleton').addEventListener('change', (e) => stage.setSkeletonVisible(e.target.checked));
  $('wireframe').addEventListener('change', (e) => stage.setWireframe(e.target.checked));
  $('grid').addEventListener('change', (e) => stage.setGridVisible(e.target.checked));
  $('shapes').addEventListener('input', () => stage.invalidate());
  $('open').addEventListener('change', (e) => addFiles([...e.target.files]));
  const body = document.body;
  body.addEventListener('dragover', (e) => { e.preventDefault(); body.classList.add('dragging'); });
  body.addEventListener('dragleave', () => body.classList.remove('dragging'));
  body.addEventListener('drop', (e) => {
    e.preventDefault();
    body.classList.remove('dragging');
    addFiles([...e.dataTransfer.files]);
  });
}

function animate() {
  const clock = new THREE.Clock();
  const step = () => {
    timeline.tick(clock.getDelta());
    stage.render();
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}

// For tests and the console: positions in glTF's space (castkit's exporter keeps Cast's units).
window.castkitViewer = {
  state,
  backend,
  stage,
  timeline,
  addFiles,
  boneWorldPosition(name) {
    const bone = stage.bones.find((b) => b.name === name);
    if (!bone) return null;
    bone.updateWorldMatrix(true, false);
    return bone.getWorldPosition(new THREE.Vector3()).toArray();
  },
  // A glb shown straight through three.js's GLTFLoader, castkit not involved, posed as the
  // page poses a scene (its first animation at frame 0, at 30 fps): the bench's reference for
  // how fast the page can show a scene.
  async showGlb(buffer) {
    const gltf = await new GLTFLoader(offlineManager()).parseAsync(buffer, '');
    stage.show(gltf.scene);
    const described = gltf.animations.map((clip) => ({
      name: clip.name, framerate: 30, frames: Math.round(clip.duration * 30), looping: false, notifications: [],
    }));
    timeline.load(gltf.scene, gltf.animations, described);
  },
  // How many of the shown InstancedMesh copies have their origin inside the view (the tests
  // check that the camera frames a whole map).
  instancesInView() {
    const matrix = new THREE.Matrix4(), point = new THREE.Vector3();
    let inView = 0, total = 0;
    stage.content?.traverse((object) => {
      if (!object.isInstancedMesh) return;
      object.updateWorldMatrix(true, false);
      for (let i = 0; i < object.count; i++) {
        object.getMatrixAt(i, matrix);
        point.setFromMatrixPosition(matrix.premultiply(object.matrixWorld)).project(stage.camera);
        total += 1;
        if (Math.abs(point.x) <= 1 && Math.abs(point.y) <= 1 && Math.abs(point.z) <= 1) inView += 1;
      }
    });
    return { inView, total };
  },
  boneScreenPosition(name) {
    const bone = stage.bones.find((b) => b.name === name);
    return bone ? stage.boneScreenPosition(bone) : null;
  },
};

wireControls();
animate();
load();
