// The package's TypeScript declarations (index.d.ts, robots-parser.d.ts, crawlee.d.ts) type-check
// types/check.ts, which uses the API as the tests do, with `tsc --noEmit --strict`.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

test('the declarations type-check a use of the whole API', () => {
	const run = spawnSync(process.execPath, [
		tsc, '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext',
		'--lib', 'es2022,dom,esnext.disposable', join(here, 'types', 'check.ts')
	], { cwd: here, encoding: 'utf8' });
	assert.equal(run.status, 0, run.stdout + run.stderr);
});
