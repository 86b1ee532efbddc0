// Animation playback: one glTF clip at a time on a mixer, driven by frame numbers in the
// animation's own frame rate (castkit's frames), with play/pause, scrubbing, speed, loop and
// the notification tracks drawn as markers on the timeline.
import * as THREE from 'three';

export class Timeline {
  constructor(elements, onChange) {
    this.ui = elements;
    this.onChange = onChange;
    this.mixer = null;
    this.entries = [];
    this.current = -1;
    this.frame = 0;
    this.playing = false;
    this.ui.play.addEventListener('click', () => (this.playing ? this.pause() : this.play()));
    this.ui.slider.addEventListener('input', () => this.setFrame(Number(this.ui.slider.value)));
    this.ui.list.addEventListener('change', () => this.select(Number(this.ui.list.value)));
  }

  // Binds the clips of a glTF scene to the descriptions castkit gave (same order, same names).
  load(root, clips, described) {
    this.mixer?.stopAllAction();
    this.mixer = new THREE.AnimationMixer(root);
    this.entries = described.map((animation, index) => ({
      ...animation,
      clip: clips.find((clip) => clip.name === animation.name) ?? clips[index] ?? null,
    }));
    this.ui.list.replaceChildren(...this.entries.map((entry, index) => {
      const option = document.createElement('option');
      option.value = String(index);
      option.textContent = `${entry.name} (${entry.frames + 1} frames @ ${entry.framerate} fps)`;
      return option;
    }));
    this.ui.root.hidden = this.entries.length === 0;
    this.current = -1;
    if (this.entries.length > 0) this.select(0);
  }

  select(index) {
    this.mixer.stopAllAction();
    this.current = index;
    const entry = this.entries[index];
    this.ui.list.value = String(index);
    this.ui.loop.checked = entry.looping;
    this.ui.slider.max = String(entry.frames);
    if (entry.clip) {
      const action = this.mixer.clipAction(entry.clip);
      action.setLoop(THREE.LoopOnce, 1);
      action.clampWhenFinished = true;
      action.play();
    }
    this.drawMarkers(entry);
    this.setFrame(0);
  }

  drawMarkers(entry) {
    const markers = [];
    for (const track of entry.notifications) {
      for (const frame of track.frames) {
        const marker = document.createElement('div');
        marker.className = 'marker';
        marker.style.left = `${entry.frames > 0 ? (100 * frame) / entry.frames : 0}%`;
        marker.title = `${track.name} @ ${frame}`;
        marker.dataset.name = track.name;
        marker.dataset.frame = String(frame);
        markers.push(marker);
      }
    }
    this.ui.markers.replaceChildren(...markers);
  }

  // Shows the pose at `frame` (fractional allowed) of the selected animation.
  setFrame(frame) {
    const entry = this.entries[this.current];
    if (!entry) return;
    this.frame = Math.min(Math.max(frame, 0), entry.frames);
    if (entry.clip) this.mixer.setTime(this.frame / entry.framerate);
    this.ui.slider.value = String(this.frame);
    this.ui.frame.textContent = `${Math.floor(this.frame)} / ${entry.frames}`;
    this.onChange();
  }

  play() {
    if (!this.entries[this.current]) return;
    this.playing = true;
    this.ui.play.textContent = 'Pause';
  }

  pause() {
    this.playing = false;
    this.ui.play.textContent = 'Play';
  }

  // Advances playback by `seconds` of wall time.
  tick(seconds) {
    const entry = this.entries[this.current];
    if (!this.playing || !entry) return;
    let frame = this.frame + seconds * entry.framerate * Number(this.ui.speed.value);
    if (frame > entry.frames) {
      if (this.ui.loop.checked && entry.frames > 0) frame %= entry.frames;
      else { frame = entry.frames; this.pause(); }
    }
    this.setFrame(frame);
  }
}
