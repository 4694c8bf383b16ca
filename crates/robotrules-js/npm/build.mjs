// Assembles the package in this folder after wasm-bindgen wrote its two outputs (run by
// `cargo xtask js`, see xtask/src/js.rs):
//   dist/node/  `--target nodejs`: CommonJS glue that loads the .wasm synchronously with `fs`
//   dist/web/   `--target web`: ESM glue with `init()` / `initSync()`, for browsers and edge runtimes
// It writes the wrapper (src/api.js), the robots-parser drop-in (src/robots-parser.js) and the
// Crawlee adapter (src/crawlee.js) as
// CommonJS and ESM modules into dist/, and makes the Node.js glue load the one .wasm file in
// dist/web/ (the two targets' .wasm files are checked to be the same bytes), so the package
// holds a single copy.

import { readFileSync, writeFileSync, rmSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const WASM = 'robotrules_js_bg.wasm';

function fail(message) {
	console.error(`build.mjs: ${message}`);
	process.exit(1);
}

for (const target of ['node', 'web']) {
	if (!existsSync(join(dist, target, WASM))) fail(`dist/${target}/${WASM} is missing: run \`cargo xtask js\``);
}

// One .wasm for both targets.
const nodeWasm = readFileSync(join(dist, 'node', WASM));
const webWasm = readFileSync(join(dist, 'web', WASM));
if (!nodeWasm.equals(webWasm)) fail('the nodejs and web targets produced different .wasm files');
const glue = join(dist, 'node', 'robotrules_js.js');
const source = readFileSync(glue, 'utf8');
const path = '${__dirname}/' + WASM;
const loads = source.split(path).length - 1;
if (loads !== 1) fail(`expected one reference to ${path} in the nodejs glue, found ${loads}`);
writeFileSync(glue, source.replace(path, '${__dirname}/../web/' + WASM));
rmSync(join(dist, 'node', WASM));
for (const extra of ['.gitignore', 'package.json']) {
	for (const target of ['node', 'web']) rmSync(join(dist, target, extra), { force: true });
}

// The wrapper and the drop-in, as CommonJS and as ESM.
for (const [file, name] of [['api.js', 'bind'], ['robots-parser.js', 'robotsParserOf'], ['crawlee.js', 'crawleeAdapterOf']]) {
	const body = readFileSync(join(here, 'src', file), 'utf8');
	const base = file.replace(/\.js$/, '');
	writeFileSync(join(dist, `${base}.cjs`), `'use strict';\n${body}\nmodule.exports = ${name};\n`);
	writeFileSync(join(dist, `${base}.mjs`), `${body}\nexport default ${name};\n`);
}
console.error('build.mjs: dist/ assembled');
