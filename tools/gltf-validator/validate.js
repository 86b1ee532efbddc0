// Validates glTF/GLB files with the Khronos glTF Validator; exits 1 when any file has an error,
// or with --strict a warning too.
// Usage: node validate.js [--strict] <file or directory>...  (directories are searched for
// .gltf/.glb)
'use strict';
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');

// The glTF JSON of a .gltf or .glb file's bytes.
function gltfJson(bytes) {
    const isGlb = bytes.length >= 20 && bytes.toString('latin1', 0, 4) === 'glTF';
    if (!isGlb) return JSON.parse(bytes.toString('utf8'));
    return JSON.parse(bytes.toString('utf8', 20, 20 + bytes.readUInt32LE(12)));
}

// The one warning castkit's export cannot clear: a normal-mapped primitive without normals.
// glTF viewers then make flat normals and ignore any tangents written (glTF 2.0, "Meshes"), so
// they make their own tangent space whatever the file holds (docs/gltf.md, "Tangents").
function isTangentsWithoutNormals(message, json) {
    if (message.code !== 'MESH_PRIMITIVE_GENERATED_TANGENT_SPACE') return false;
    const at = /^\/meshes\/(\d+)\/primitives\/(\d+)\//.exec(message.pointer || '');
    const primitive = at && json.meshes?.[Number(at[1])]?.primitives?.[Number(at[2])];
    return Boolean(primitive) && !('NORMAL' in (primitive.attributes || {}));
}

function collect(target, out) {
    if (fs.statSync(target).isDirectory()) {
        for (const entry of fs.readdirSync(target).sort()) collect(path.join(target, entry), out);
    } else if (/\.(gltf|glb)$/i.test(target)) {
        out.push(target);
    }
}

async function main() {
    const files = [];
    const strict = process.argv.includes('--strict');
    for (const argument of process.argv.slice(2))
        if (argument !== '--strict') collect(argument, files);
    if (files.length === 0) {
        console.error('validate.js: no .gltf or .glb files found');
        return 1;
    }
    let failed = 0;
    for (const file of files) {
        const bytes = fs.readFileSync(file);
        const report = await validator.validateBytes(new Uint8Array(bytes), {
            uri: path.basename(file),
            maxIssues: 0,
            // Buffers and images beside the file are read (and images validated); a texture
            // that is only referenced and not there is not required.
            externalResourceFunction: (uri) => new Promise((resolve, reject) => {
                const resource = path.join(path.dirname(file), decodeURIComponent(uri));
                fs.readFile(resource, (error, data) => {
                    if (!error) return resolve(new Uint8Array(data));
                    reject(/\.bin$/i.test(uri) ? error : new Error('texture not loaded'));
                });
            }),
        });
        // castkit references textures by URI and never ships them: an image that was not loaded
        // is reported as such, not counted as an error of the file.
        const textureNotLoaded = (m) => m.code === 'IO_ERROR' && /^\/images\//.test(m.pointer || '');
        const messages = report.issues.messages;
        const errors = messages.filter((m) => m.severity === 0 && !textureNotLoaded(m)).length;
        const warnings = messages.filter((m) => m.severity === 1).length;
        let json = null;
        try { json = gltfJson(bytes); } catch (e) { json = {}; }
        const unclearable = messages.filter((m) => m.severity === 1 && isTangentsWithoutNormals(m, json)).length;
        const unloaded = messages.filter(textureNotLoaded).length;
        console.log(`${file}: ${errors} errors, ${warnings} warnings, ${unloaded} textures not loaded`);
        for (const message of messages)
            if (message.severity <= 1 && !textureNotLoaded(message))
                console.log(`  ${message.severity === 0 ? 'error' : 'warning'} ${message.code} ${message.pointer || ''}: ${message.message}`);
        if (errors > 0 || (strict && warnings > unclearable)) failed += 1;
    }
    return failed ? 1 : 0;
}

main().then((code) => process.exit(code), (error) => { console.error(error); process.exit(1); });
