import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ensureDebianPackages } from './debian-packages.mjs';

// Writes the web fonts src/web/fonts.css declares (src/web/assets/fonts/inter-<subset>-wght-400-700.woff2)
// from Fontsource's Inter: the weight axis cut to the 400–700 the styles ask for (normal, medium, semibold,
// and bold for <strong>), and only the characters of the face's unicode-range, which takes the Latin face
// from 48 to 31 KB. Needs Debian's fonttools and python3-brotli (woff2).
// Usage: node scripts/subset-fonts.mjs

const ROOT = path.resolve(import.meta.dirname, '..');
const FILES = path.join(ROOT, 'node_modules/@fontsource-variable/inter/files');
const WEIGHTS = '400:700';

ensureDebianPackages([
  { path: '/usr/bin/fonttools', pkg: 'fonttools' },
  { path: '/usr/lib/python3/dist-packages/brotli.py', pkg: 'python3-brotli' },
]);

const run = (args) => {
  const result = spawnSync('fonttools', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`fonttools ${args.join(' ')} failed:\n${result.stderr}`);
};

const css = readFileSync(path.join(ROOT, 'src/web/fonts.css'), 'utf8');
const faces = [...css.matchAll(/@font-face\s*{([^}]*)}/g)].map(([, body]) => ({
  file: /url\(\.\/(assets\/fonts\/inter-([\w-]+)-wght-400-700\.woff2)\)/.exec(body),
  unicodes: /unicode-range:([^;]+);/.exec(body)?.[1]?.replace(/\s+/g, ''),
}));
if (faces.length === 0 || faces.some((face) => !face.file || !face.unicodes))
  throw new Error(
    'src/web/fonts.css: every @font-face names assets/fonts/inter-<subset>-wght-400-700.woff2 and a unicode-range',
  );

const work = mkdtempSync(path.join(tmpdir(), 'innerwave-fonts-'));
try {
  for (const { file, unicodes } of faces) {
    const source = path.join(FILES, `inter-${file[2]}-wght-normal.woff2`);
    const target = path.join(ROOT, 'src/web', file[1]);
    const ttf = path.join(work, 'face.ttf');
    const cut = path.join(work, 'face-cut.ttf');
    run(['ttLib.woff2', 'decompress', '-o', ttf, source]);
    run(['varLib.instancer', ttf, `wght=${WEIGHTS}`, '-o', cut]);
    run(['subset', cut, `--unicodes=${unicodes}`, '--layout-features=*', '--flavor=woff2', `--output-file=${target}`]);
    console.log(`${path.relative(ROOT, target)}: ${statSync(source).size} → ${statSync(target).size} bytes`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
