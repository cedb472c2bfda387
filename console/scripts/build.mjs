// Builds the console inside the Maven build with the machine's Node.js and npm, doing only what changed:
//   node scripts/build.mjs build <outDir> [<stampFile>]
//       npm ci when package-lock.json changed, vite build when a source changed (the sources' hash is kept in the
//       stamp file, outside the output so it is not served)
//   node scripts/build.mjs test [--skip=true]  the unit tests (vitest)
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [mode, ...args] = process.argv.slice(2);

function fail(message) {
  console.error(`console: ${message}`);
  process.exit(1);
}

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  fail(`Node.js ${process.versions.node} is too old: Vite 7 needs 20.19 or later (or build with -Dconsole.skip=true)`);
}

function hashOf(paths) {
  const h = createHash('sha256');
  for (const p of paths) {
    h.update(p.slice(root.length));
    h.update(readFileSync(p));
  }
  return h.digest('hex');
}

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? files(p) : [p];
  }).sort();
}

function run(command, commandArgs) {
  const r = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.error) fail(`cannot run ${command}: ${r.error.message}`);
  if (r.status !== 0) fail(`${command} ${commandArgs.join(' ')} failed (exit ${r.status})`);
}

/** npm ci only when the lock file differs from the one node_modules was installed from. */
function install() {
  const lock = join(root, 'package-lock.json');
  const stamp = join(root, 'node_modules', '.eventplane-lock-hash');
  const want = hashOf([lock]);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return;
  const t0 = Date.now();
  run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error']);
  writeFileSync(stamp, want);
  console.log(`console: npm ci in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

if (mode === 'build') {
  const out = args[0] ? resolve(args[0]) : join(root, 'dist');
  install();
  const sources = [...files(join(root, 'src')), ...['index.html', 'vite.config.js', 'package-lock.json']
    .map((f) => join(root, f))];
  const hash = hashOf(sources);
  const stamp = args[1] ? resolve(args[1]) : join(root, 'node_modules', '.eventplane-source-hash');
  if (existsSync(join(out, 'index.html')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) {
    console.log('console: up to date');
    process.exit(0);
  }
  const t0 = Date.now();
  const { build } = await import('vite');
  await build({ root, logLevel: 'warn', build: { outDir: out, emptyOutDir: true } });
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, hash);
  const size = files(out).reduce((n, f) => n + statSync(f).size, 0);
  console.log(`console: built into ${out} in ${((Date.now() - t0) / 1000).toFixed(1)} s (${(size / 1024).toFixed(0)} KiB)`);
} else if (mode === 'test') {
  if (args.includes('--skip=true')) process.exit(0);
  install();
  run(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run']);
} else {
  fail('usage: node scripts/build.mjs build <outDir> | test [--skip=true]');
}
