// Validates glTF/GLB files with the Khronos glTF Validator; exits 1 when any file has an error.
// Usage: node validate.js <file or directory>...  (directories are searched for .gltf/.glb)
'use strict';
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');

function collect(target, out) {
    if (fs.statSync(target).isDirectory()) {
        for (const entry of fs.readdirSync(target).sort()) collect(path.join(target, entry), out);
    } else if (/\.(gltf|glb)$/i.test(target)) {
        out.push(target);
    }
}

async function main() {
    const files = [];
    for (const argument of process.argv.slice(2)) collect(argument, files);
    if (files.length === 0) {
        console.error('validate.js: no .gltf or .glb files found');
        return 1;
    }
    let failed = 0;
    for (const file of files) {
        const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
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
        const unloaded = messages.filter(textureNotLoaded).length;
        console.log(`${file}: ${errors} errors, ${warnings} warnings, ${unloaded} textures not loaded`);
        for (const message of messages)
            if (message.severity <= 1 && !textureNotLoaded(message))
                console.log(`  ${message.severity === 0 ? 'error' : 'warning'} ${message.code} ${message.pointer || ''}: ${message.message}`);
        if (errors > 0) failed += 1;
    }
    return failed ? 1 : 0;
}

main().then((code) => process.exit(code), (error) => { console.error(error); process.exit(1); });
