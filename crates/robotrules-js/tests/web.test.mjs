// The browser and edge-runtime entry points (web.mjs, robots-parser.web.mjs: ESM glue with
// init()/initSync()), loaded here the way a Worker loads them: initSync with the .wasm bytes.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = dirname(createRequire(import.meta.url).resolve('robotrules/package.json'));
const load = (file) => import(pathToFileURL(join(root, file)).href);

test('web.mjs answers once initSync has the WebAssembly', async () => {
	const web = await load('web.mjs');
	web.initSync({ module: readFileSync(join(root, 'dist/web/robotrules_js_bg.wasm')) });
	const robots = web.Robots.parse('user-agent: *\ndisallow: /a\n', { profile: 'google' });
	assert.equal(robots.isAllowed('bot', '/a/b'), false);
	assert.deepEqual(robots.crawler('bot').decide('/a').decidedBy, { line: 2, kind: 'disallow', pattern: '/a' });
	assert.throws(() => web.Robots.parse('').isAllowed('Bot/1.0 (x)', '/'), web.InvalidAgent);
	assert.equal(web.lint('user-agent: *\ndissallow: /x\n').findings[0].code, 'misspelt-key');
	const robotsParser = (await load('robots-parser.web.mjs')).default;
	const parsed = robotsParser('https://example.com/robots.txt', 'User-agent: *\nDisallow: /a\n');
	assert.equal(parsed.isAllowed('https://example.com/a'), false);
	assert.equal(parsed.isAllowed('https://other.example/a'), undefined);
});
