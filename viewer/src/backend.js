// Where the page's scene comes from. Both backends run castkit's own code (viewer/session):
// `castkit view` over HTTP on 127.0.0.1, or castkit compiled to WebAssembly inside the page, so
// what the page shows is what castkit computes, and a static page uploads nothing.
//
// A backend has: add(name, Uint8Array) → Promise (rejects with castkit's error text),
// setBase(file, frame) → Promise (the clip additive animations are layered on: an animation
// file's name, or '' for the rest pose; frame null for the same time as each frame),
// scene() → Promise<description object>, glb() → Promise<ArrayBuffer> (rejects with the text).

// `castkit view`: the files named on its command line are already added. Each request carries
// the server's access token in the cookie it set when it served the page (same-origin requests
// send it; docs/security.md).
export class HttpBackend {
  async add(name, bytes) {
    const response = await fetch(`api/files?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      body: bytes,
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    if (!response.ok) throw new Error(await response.text());
  }

  async setBase(file, frame) {
    const query = `file=${encodeURIComponent(file)}&frame=${frame === null ? '' : frame}`;
    const response = await fetch(`api/base?${query}`, {
      method: 'POST',
      body: new Uint8Array(0),
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    if (!response.ok) throw new Error(await response.text());
  }

  async scene() {
    const response = await fetch('api/scene');
    if (!response.ok) throw new Error(await response.text());
    return response.json();
  }

  async glb() {
    const response = await fetch('api/scene.glb');
    if (!response.ok) throw new Error(await response.text());
    return response.arrayBuffer();
  }
}

// The static page: castkit.js (emscripten, the wasm inlined) defines createCastkit().
export class WasmBackend {
  constructor(factory) {
    this.ready = factory().then((module) => {
      this.session = new module.Session();
    });
  }

  async add(name, bytes) {
    await this.ready;
    const error = this.session.add(name, bytes);
    if (error) throw new Error(error);
  }

  async setBase(file, frame) {
    await this.ready;
    const error = this.session.setBase(file, frame === null ? NaN : frame);
    if (error) throw new Error(error);
  }

  async scene() {
    await this.ready;
    return JSON.parse(this.session.sceneJson());
  }

  async glb() {
    await this.ready;
    const bytes = this.session.glb();
    if (bytes.length === 0) throw new Error(this.session.lastError());
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  }
}

// The backend this page was built with: WebAssembly when castkit.js is loaded beside it.
export function pickBackend() {
  if (typeof globalThis.createCastkit === 'function') return new WasmBackend(globalThis.createCastkit);
  return new HttpBackend();
}
