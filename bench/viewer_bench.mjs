// How fast the viewer shows a big scene (`make bench`, bench/run.sh): a generated ~64 MiB Cast
// file dropped on the static page (castkit as WebAssembly converts it to glb, three.js's
// GLTFLoader parses that, the first frame is drawn), against the same scene as a glb given
// straight to three.js's GLTFLoader in the same page and the same browser run. Rounds
// alternate; the page is reloaded before each measurement so neither inherits the other's
// memory. Prints a Markdown table and writes it to BUILD/bench-viewer.md.
//   node bench/viewer_bench.mjs BUILD [--megabytes 68] [--rounds 5]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium, loadPlaywright } from '../tests/viewer/browser.mjs';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { megabytes: { type: 'string', default: '68' }, rounds: { type: 'string', default: '5' } },
});
const build = resolve(positionals[0] ?? 'build');
const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'viewer', 'dist');
const castkit = join(build, 'tools', 'castkit', 'castkit');
const work = join(build, 'bench');
mkdirSync(work, { recursive: true });
const cast = join(work, `viewer-${values.megabytes}mb.cast`);
const glb = join(work, `viewer-${values.megabytes}mb.glb`);
if (!existsSync(cast))
  execFileSync(join(build, 'bench', 'castkit_make_scene'), ['--megabytes', values.megabytes, cast], { stdio: 'ignore' });
if (!existsSync(glb)) execFileSync(castkit, ['convert', cast, glb], { stdio: 'ignore' });

// The static page and the two files, served on loopback (a static host, as users may use).
const files = { '/index.html': join(dist, 'index.html'), '/viewer.js': join(dist, 'viewer.js'),
  '/castkit.js': join(dist, 'castkit.js'), '/scene.cast': cast, '/scene.glb': glb };
const server = createServer((request, response) => {
  const path = files[request.url];
  if (!path) { response.writeHead(404).end(); return; }
  response.writeHead(200, { 'Content-Type': path.endsWith('.html') ? 'text/html' : 'application/octet-stream' });
  response.end(readFileSync(path));
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const url = `http://127.0.0.1:${server.address().port}/index.html`;

const modules = join(build + '-wasm', 'viewer-page', 'node_modules');
const browser = await launchChromium(loadPlaywright(modules));

// Milliseconds from having the file's bytes in the page to its first frame drawn.
async function measure(kind) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
  await page.goto(url);
  await page.waitForFunction(() => window.castkitViewer?.state.loads >= 1);
  const result = await page.evaluate(async (kind) => {
    const bytes = await (await fetch(kind === 'cast' ? 'scene.cast' : 'scene.glb')).arrayBuffer();
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    await frame();
    const start = performance.now();
    if (kind === 'cast') await window.castkitViewer.addFiles([new File([bytes], 'scene.cast')]);
    else await window.castkitViewer.showGlb(bytes);
    await frame();
    return { ms: performance.now() - start, error: window.castkitViewer.state.error };
  }, kind);
  await page.close();
  if (result.error) throw new Error(`${kind}: ${result.error}`);
  return result.ms;
}

const times = { cast: [], glb: [] };
for (let round = 0; round < Number(values.rounds); round++)
  for (const kind of round % 2 ? ['glb', 'cast'] : ['cast', 'glb']) times[kind].push(await measure(kind));
await browser.close();
server.close();

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const castMs = median(times.cast), glbMs = median(times.glb);
const mib = (path) => (statSync(path).size / 2 ** 20).toFixed(1);
const version = execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8' }).trim();
const table = [
  `Viewer, first frame of a scene (${version}, headless, software GL; median of ${values.rounds} alternating rounds, each in a fresh page):`,
  '',
  '| Shown | File | Median | Runs (ms) | Against three.js | Target |',
  '|---|---|---|---|---|---|',
  `| three.js GLTFLoader, the scene as glb | ${mib(glb)} MiB | ${glbMs.toFixed(0)} ms | ${times.glb.map((t) => t.toFixed(0)).join(', ')} | 1.00× | |`,
  `| castkit viewer (WebAssembly), the scene as Cast | ${mib(cast)} MiB | ${castMs.toFixed(0)} ms | ${times.cast.map((t) => t.toFixed(0)).join(', ')} | ${(castMs / glbMs).toFixed(2)}× | ≤ 2× |`,
  '',
].join('\n');
writeFileSync(join(build, 'bench-viewer.md'), table);
console.log(table);
