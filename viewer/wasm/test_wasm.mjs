// viewer/dist/castkit.js (make viewer-wasm) in Node, through the API the viewer page uses; its
// glb is compared with what the native CLI writes for the same files (CASTKIT: the CLI's path,
// by default build/tools/castkit/castkit).
//   node --test viewer/wasm/test_wasm.mjs
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const data = (name) => fs.readFileSync(path.join(root, 'examples/data', name));
const createCastkit = createRequire(import.meta.url)(path.join(root, 'viewer/dist/castkit.js'));
const castkit = await createCastkit();

// A session holding `files` ({name: bytes}), each added without error.
function sessionWith(files) {
    const session = new castkit.Session();
    for (const [name, bytes] of Object.entries(files)) assert.equal(session.add(name, bytes), '');
    return session;
}

const characterAndWave = () => ({
    'character.cast': data('character.cast'),
    'wave.cast': data('wave.cast'),
});

test('a model and its animation are one scene: 1 model file, 1 animation, 3 bones', () => {
    const session = sessionWith(characterAndWave());
    const scene = JSON.parse(session.sceneJson());
    assert.deepEqual(scene.files.map((f) => f.role), ['model', 'animation']);
    assert.equal(scene.animations.length, 1);
    assert.equal(scene.bones.length, 3);
    session.delete();
});

test('glb() is a binary glTF whose length field is its size', () => {
    const session = sessionWith(characterAndWave());
    const glb = session.glb();
    assert.ok(glb instanceof Uint8Array);
    assert.equal(Buffer.from(glb.subarray(0, 4)).toString('latin1'), 'glTF');
    assert.equal(new DataView(glb.buffer, glb.byteOffset).getUint32(8, true), glb.length);
    assert.equal(session.lastError(), '');
    session.delete();
});

test('a truncated Cast file is an error that names its offset', () => {
    const session = new castkit.Session();
    const error = session.add('hero.cast', data('character.cast').subarray(0, 100));
    assert.match(error, /offset/);
    assert.equal(JSON.parse(session.sceneJson()).files.length, 0);
    session.delete();
});

test('bytes of another format, or garbage, under a format\'s name are errors', () => {
    const session = new castkit.Session();
    assert.notEqual(session.add('x.semodel', data('character.cast')), '');
    assert.notEqual(session.add('x.glb', new TextEncoder().encode('not a glTF at all')), '');
    assert.notEqual(session.add('x.glb', new Uint8Array(0)), '');
    assert.match(session.add('../x.cast', data('character.cast')), /viewer\.name/);
    assert.equal(session.glb().length, 0);
    assert.match(session.lastError(), /\[viewer\.empty\]/);
    session.delete();
});

test('a name that is not UTF-8 is shown with U+FFFD', () => {
    const bytes = Buffer.from(data('character.cast'));
    bytes[bytes.indexOf('pelvis') + 1] = 0xff;
    const session = sessionWith({ 'character.cast': bytes });
    assert.equal(JSON.parse(session.sceneJson()).bones[0].name, 'p\uFFFDlvis');
    session.delete();
});

test('clear() forgets every file', () => {
    const session = sessionWith(characterAndWave());
    session.clear();
    assert.equal(JSON.parse(session.sceneJson()).files.length, 0);
    assert.equal(session.glb().length, 0);
    session.delete();
});

// The native CLI, for comparisons; they are skipped without it.
const cli = path.resolve(process.env.CASTKIT || path.join(root, 'build/tools/castkit/castkit'));
const noCli = fs.existsSync(cli) ? false : 'no native CLI: set CASTKIT or build it in build/';

// Runs `castkit ARGS...` in a new temporary folder with `files` ({name: bytes}) written into
// it, and returns the bytes of its file `output`. A failure's message has the CLI's stderr.
function castkitCli(files, args, output) {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'castkit-wasm-'));
    try {
        for (const [name, bytes] of Object.entries(files))
            fs.writeFileSync(path.join(folder, name), bytes);
        execFileSync(cli, args, { cwd: folder });
        return fs.readFileSync(path.join(folder, output));
    } finally {
        fs.rmSync(folder, { recursive: true });
    }
}

test('glb() is what `castkit convert MODEL ANIM -o out.glb` writes', { skip: noCli }, () => {
    const inputs = ['character.cast', 'wave.cast'].map((name) =>
        path.join(root, 'examples/data', name));
    const expected = castkitCli({}, ['convert', ...inputs, '-o', 'out.glb'], 'out.glb');
    // The textures character.cast names (textures/skin_*.png), added beside it as the page does:
    // not a model or animation format, but kept in /files where the exporter finds them.
    const session = sessionWith(characterAndWave());
    for (const name of ['textures/skin_albedo.png', 'textures/skin_normal.png'])
        assert.match(session.add(name, data(name)), /viewer\.format/);
    assert.deepEqual(Buffer.from(session.glb()), expected);
    session.delete();
});

test('a DMF JSON file (simdjson, alphas) gives the CLI\'s glb', { skip: noCli }, () => {
    const character = path.join(root, 'examples/data/character.cast');
    const written = castkitCli({}, ['convert', character, 'x.dmf.json'], 'x.dmf.json');
    const alphas = ['0.502', '0.25', '1e-1', '.5', '0.0039215689', '1.0'];
    let k = 0;
    const dmf = Buffer.from(written.toString('utf8').replace(/(rgba\(\d+, \d+, \d+, )1\)/g,
        (_, start) => `${start}${alphas[k++ % alphas.length]})`));
    assert.ok(k >= alphas.length);
    // The page unpacks the images a DMF embeds into a folder of its own and embeds them in
    // the glb, as the CLI does given a texture folder.
    const expected = castkitCli({ 'x.dmf.json': dmf },
        ['convert', 'x.dmf.json', 'out.glb', '--textures', 'images'], 'out.glb');
    const session = sessionWith({ 'x.dmf.json': dmf });
    assert.deepEqual(Buffer.from(session.glb()), expected);
    session.delete();
});
