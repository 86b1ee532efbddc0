// The 3D view: renderer, orbit camera, lights, grid, skeleton overlay with bone names on hover,
// and wireframe. It shows one glTF scene at a time (what castkit exported), and draws a frame
// only after something changed (invalidate): an idle page costs no processor time, where
// drawing every frame kept a core busy (in software rendering, the whole of one).
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

export class Stage {
  constructor(canvas, tooltip) {
    this.canvas = canvas;
    this.tooltip = tooltip;
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(window.devicePixelRatio);
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0x20232a);
    this.camera = new THREE.PerspectiveCamera(45, 1, 0.01, 1000);
    this.camera.position.set(2, 2, 4);
    this.controls = new OrbitControls(this.camera, canvas);
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2.0));
    const sun = new THREE.DirectionalLight(0xffffff, 2.0);
    sun.position.set(3, 10, 5);
    this.scene.add(sun);
    this.grid = new THREE.GridHelper(10, 20, 0x666666, 0x3a3a3a);
    this.scene.add(this.grid);
    this.content = null;
    this.skeletonHelper = null;
    this.bones = [];
    this.wireframe = false;
    this.dirty = true;
    this.controls.addEventListener('change', () => this.invalidate());
    canvas.addEventListener('pointermove', (event) => this.hover(event));
    canvas.addEventListener('pointerleave', () => { this.tooltip.hidden = true; });
    new ResizeObserver(() => this.resize()).observe(canvas.parentElement);
    this.resize();
  }

  // Asks for a frame to be drawn: every change to what is shown calls it.
  invalidate() {
    this.dirty = true;
  }

  resize() {
    const { clientWidth: width, clientHeight: height } = this.canvas.parentElement;
    if (width === 0 || height === 0) return;
    this.renderer.setSize(width, height, false);
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
    this.invalidate();
  }

  // Replaces the shown scene with `root` (a glTF scene) and frames it.
  show(root) {
    if (this.content) this.scene.remove(this.content);
    if (this.skeletonHelper) this.scene.remove(this.skeletonHelper);
    this.content = root;
    this.scene.add(root);
    this.bones = [];
    root.traverse((object) => { if (object.isBone) this.bones.push(object); });
    // An animation without a model: the nodes its curves move are the skeleton. A scene with
    // meshes and no bones has none (a map's 100,000 instance nodes are no skeleton to redraw
    // every frame).
    if (this.bones.length === 0 && !hasMesh(root))
      root.traverse((object) => { if (object !== root && object.type === 'Object3D') this.bones.push(object); });
    this.skeletonHelper = new SkeletonOverlay(this.bones);
    this.skeletonHelper.visible = this.showSkeleton ?? true;
    this.scene.add(this.skeletonHelper);
    this.setWireframe(this.wireframe);
    this.frame();
  }

  // Points the orbit camera at the scene's bounds (its bones' too: a skeleton alone has no mesh).
  // An InstancedMesh's bounds are those of all its instances (three.js's computeBoundingBox).
  frame() {
    const box = new THREE.Box3();
    if (this.content) {
      this.content.updateMatrixWorld(true);
      box.setFromObject(this.content);
      const point = new THREE.Vector3();
      for (const bone of this.bones) box.expandByPoint(bone.getWorldPosition(point));
    }
    if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
    const center = box.getCenter(new THREE.Vector3());
    const radius = Math.max(box.getSize(new THREE.Vector3()).length() / 2, 1e-3);
    const distance = radius / Math.sin(THREE.MathUtils.degToRad(this.camera.fov / 2));
    this.camera.near = distance / 1000;
    this.camera.far = distance * 100;
    this.camera.position.copy(center).add(new THREE.Vector3(0.6, 0.5, 1).normalize().multiplyScalar(distance));
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(center);
    this.controls.update();
    const size = Math.pow(10, Math.ceil(Math.log10(radius * 4)));
    this.scene.remove(this.grid);
    this.grid = new THREE.GridHelper(size, 20, 0x666666, 0x3a3a3a);
    this.grid.position.y = box.min.y;
    this.grid.visible = this.showGrid ?? true;
    this.scene.add(this.grid);
    this.invalidate();
  }

  setSkeletonVisible(visible) {
    this.showSkeleton = visible;
    if (this.skeletonHelper) this.skeletonHelper.visible = visible;
    this.invalidate();
  }

  setGridVisible(visible) {
    this.showGrid = visible;
    this.grid.visible = visible;
    this.invalidate();
  }

  setWireframe(on) {
    this.wireframe = on;
    this.content?.traverse((object) => {
      const materials = Array.isArray(object.material) ? object.material : [object.material];
      for (const material of materials) if (material) material.wireframe = on;
    });
    this.invalidate();
  }

  // The name of the bone drawn nearest the pointer (within 12 pixels), while the overlay shows.
  hover(event) {
    const rect = this.canvas.getBoundingClientRect();
    const x = event.clientX - rect.left, y = event.clientY - rect.top;
    const bone = this.skeletonHelper?.visible ? this.boneAt(x, y, rect) : null;
    this.tooltip.hidden = !bone;
    if (!bone) return;
    this.tooltip.textContent = bone.name;
    this.tooltip.style.left = `${x + 14}px`;
    this.tooltip.style.top = `${y + 8}px`;
  }

  boneAt(x, y, rect) {
    let best = null, bestDistance = 12;
    const point = new THREE.Vector3();
    for (const bone of this.bones) {
      bone.getWorldPosition(point).project(this.camera);
      if (point.z > 1) continue;
      const px = (point.x + 1) / 2 * rect.width, py = (1 - point.y) / 2 * rect.height;
      const distance = Math.hypot(px - x, py - y);
      if (distance < bestDistance) { best = bone; bestDistance = distance; }
    }
    return best;
  }

  // Where `bone` is drawn, in canvas pixels (the tests point at it).
  boneScreenPosition(bone) {
    const rect = this.canvas.getBoundingClientRect();
    const point = bone.getWorldPosition(new THREE.Vector3()).project(this.camera);
    return { x: (point.x + 1) / 2 * rect.width, y: (1 - point.y) / 2 * rect.height };
  }

  // What the shown scene draws: its meshes, the InstancedMesh objects among them (one per
  // distinct mesh of a map exported with EXT_mesh_gpu_instancing) and the copies they draw.
  drawn() {
    const drawn = { meshes: 0, instancedMeshes: 0, instances: 0 };
    this.content?.traverse((object) => {
      if (!object.isMesh) return;
      drawn.meshes += 1;
      if (object.isInstancedMesh) {
        drawn.instancedMeshes += 1;
        drawn.instances += object.count;
      }
    });
    return drawn;
  }

  // Draws a frame if one was asked for since the last.
  render() {
    if (!this.dirty) return;
    this.dirty = false;
    this.skeletonHelper?.update();
    this.renderer.render(this.scene, this.camera);
  }
}

function hasMesh(root) {
  let found = false;
  root.traverse((object) => { found ||= object.isMesh === true; });
  return found;
}

// Bones as points joined to their parents by lines, drawn over the meshes.
class SkeletonOverlay extends THREE.Group {
  constructor(bones) {
    super();
    this.bones = bones;
    const index = new Map(bones.map((bone, i) => [bone, i]));
    this.links = bones.flatMap((bone, i) => (index.has(bone.parent) ? [i, index.get(bone.parent)] : []));
    this.positions = new Float32Array(bones.length * 3);
    const joints = new THREE.BufferGeometry();
    joints.setAttribute('position', new THREE.BufferAttribute(this.positions, 3));
    const lines = new THREE.BufferGeometry();
    lines.setAttribute('position', new THREE.BufferAttribute(this.positions, 3));
    lines.setIndex(this.links);
    const style = { color: 0x4fd1ff, depthTest: false, depthWrite: false, transparent: true };
    this.add(new THREE.Points(joints, new THREE.PointsMaterial({ ...style, size: 7, sizeAttenuation: false })));
    this.add(new THREE.LineSegments(lines, new THREE.LineBasicMaterial(style)));
    for (const child of this.children) { child.renderOrder = 999; child.frustumCulled = false; }
    this.update();
  }

  // Follows the bones' current world positions.
  update() {
    const point = new THREE.Vector3();
    this.bones.forEach((bone, i) => bone.getWorldPosition(point).toArray(this.positions, i * 3));
    for (const child of this.children) child.geometry.attributes.position.needsUpdate = true;
  }
}
