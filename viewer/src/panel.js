// The side panel: what `castkit info` reports per file, the `castkit validate` diagnostics,
// the scene's counts, and one slider per blend shape (morph target).

function element(tag, properties = {}, children = []) {
  const node = Object.assign(document.createElement(tag), properties);
  node.append(...children);
  return node;
}

// Every finding the panel lists: what validate says of each file, then what merging and the
// export said. The counts are taken from this list, so they match what is shown.
function findings(scene) {
  return [...scene.diagnostics, ...scene.warnings];
}

export function showCounts(container, scene, clips) {
  const counts = {
    files: scene.files.length,
    models: scene.models,
    meshes: scene.meshes,
    instances: scene.instances,
    bones: scene.bones.length,
    animations: scene.animations.length,
    'blend shapes': scene.blend_shapes.length,
    errors: findings(scene).filter((d) => d.severity === 'error').length,
    warnings: findings(scene).filter((d) => d.severity === 'warning').length,
  };
  container.replaceChildren(...Object.entries(counts).map(([name, value]) =>
    element('div', { className: 'count' }, [
      element('span', { textContent: name }),
      element('b', { textContent: String(value), id: `count-${name.replace(' ', '-')}` }),
    ])));
  container.dataset.clips = String(clips.length);
}

export function showFiles(container, scene) {
  container.replaceChildren(...scene.files.map((file) =>
    element('details', { open: scene.files.length <= 2 }, [
      element('summary', { textContent: `${file.name} — ${file.role}, ${file.format}, ${file.bytes} bytes` }),
      element('pre', { className: 'info', textContent: file.info }),
    ])));
}

export function showDiagnostics(container, scene) {
  const lines = findings(scene).map((d) =>
    element('li', { className: `diagnostic ${d.severity}`, textContent: d.text, title: d.id }));
  container.replaceChildren(...(lines.length ? lines : [element('li', { textContent: 'no findings' })]));
}

// One slider per morph target of every mesh; each sets that target's influence.
export function showBlendShapes(container, root) {
  const sliders = [];
  root?.traverse((object) => {
    if (!object.morphTargetDictionary || !object.morphTargetInfluences) return;
    for (const [name, index] of Object.entries(object.morphTargetDictionary)) {
      const slider = element('input', { type: 'range', min: 0, max: 1, step: 0.01, value: object.morphTargetInfluences[index] });
      slider.dataset.shape = name;
      slider.addEventListener('input', () => { object.morphTargetInfluences[index] = Number(slider.value); });
      sliders.push(element('label', { className: 'shape' }, [element('span', { textContent: name }), slider]));
    }
  });
  container.replaceChildren(...(sliders.length ? sliders : [element('span', { textContent: 'none' })]));
}

// The base picker for additive animations, shown when a file holds one: the rest pose or any
// other animation file, and one frame of it or each frame in time.
export function showBasePicker(section, select, frame, scene) {
  section.hidden = !scene.files.some((file) => file.additive);
  const bases = scene.files.filter((file) => file.role === 'animation' && !file.additive);
  select.replaceChildren(
    element('option', { value: '', textContent: 'the rest pose' }),
    ...bases.map((file) => element('option', { value: file.name, textContent: file.name })));
  select.value = scene.base.file ?? '';
  frame.value = scene.base.frame === null ? '' : String(scene.base.frame);
  frame.disabled = select.value === '';
}
