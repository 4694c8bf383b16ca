// The static tester (`cargo xtask static-tester DIR`) in headless Chromium: the folder is
// served by a plain static file server on loopback (GET only, no API), Chromium is driven
// through chromedriver's WebDriver HTTP API (fetch, no npm package), and the page is checked
// as `robotrules serve`'s browser test checks it (crates/robotrules-cli/tests/it/serve_browser.rs):
// verdicts under the three profiles, lint findings in the list and the gutter, the deciding
// line of a selected result, and a shared link that reproduces the test in a fresh page.
// Every answer comes from the WebAssembly engine: the test fails if the page asks /api/.
//
// ROBOTRULES_STATIC_TESTER names the folder (the JS step of `cargo xtask test` writes it to
// target/js/tester); chromium and chromedriver are Debian's (`chromium`, `chromium-driver`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, extname, join, normalize } from 'node:path';

const SITE = process.env.ROBOTRULES_STATIC_TESTER;
const SETTLE_MS = 20_000;

const ROBOTS = 'User-agent: *\nDisallow: /private/\nDisalow: /typo\nAllow: /private/press/\nDisallow: /*.pdf$\n';
const URLS = ['/private/x', '/private/press/a', '/public', '/a.pdf'];

/** The program `name` on PATH, else at Debian's `fallback`. */
function program(name, fallback) {
	for (const dir of (process.env.PATH || '').split(delimiter)) {
		if (dir && existsSync(join(dir, name))) return join(dir, name);
	}
	if (existsSync(fallback)) return fallback;
	throw new Error(`${name} is not installed: cargo xtask test installs chromium and chromium-driver`);
}

const TYPES = {
	'.html': 'text/html; charset=utf-8',
	'.js': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.wasm': 'application/wasm',
};

/** A plain static file server for `root` on a free loopback port; `requests` records the paths. */
function staticServer(root, requests) {
	const server = createServer((request, response) => {
		const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
		requests.push(path);
		const file = normalize(join(root, path === '/' ? 'index.html' : path));
		if (request.method !== 'GET' || !file.startsWith(normalize(root)) || !existsSync(file)) {
			response.writeHead(404).end();
			return;
		}
		response.writeHead(200, { 'Content-Type': TYPES[extname(file)] || 'application/octet-stream' });
		response.end(readFileSync(file));
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** A free loopback port. */
function freePort() {
	const server = createServer();
	return new Promise((resolve) =>
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		}),
	);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForPort(port) {
	const deadline = Date.now() + 20_000;
	for (;;) {
		const open = await new Promise((resolve) => {
			const socket = createConnection(port, '127.0.0.1', () => {
				socket.end();
				resolve(true);
			});
			socket.on('error', () => resolve(false));
		});
		if (open) return;
		if (Date.now() > deadline) throw new Error('chromedriver did not start');
		await sleep(50);
	}
}

let server;
let driver;
let driverPort;
let session;
let profileDir;
const requests = [];

/** A WebDriver command: its `value`, or an error with the driver's message. */
async function wd(method, path, body) {
	const response = await fetch(`http://127.0.0.1:${driverPort}${path}`, {
		method,
		headers: { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const json = await response.json();
	if (!response.ok) throw new Error(`WebDriver ${method} ${path}: ${JSON.stringify(json.value)}`);
	return json.value;
}

/** Runs `script` (a function body) in the page with `args`, and returns its value. */
const js = (script, ...args) => wd('POST', `/session/${session}/execute/sync`, { script, args });
const goto = (url) => wd('POST', `/session/${session}/url`, { url });

/** Waits until `script` returns true; fails with `what` and the check status otherwise. */
async function waitFor(script, what, ...args) {
	const deadline = Date.now() + SETTLE_MS;
	while ((await js(script, ...args)) !== true) {
		if (Date.now() > deadline) {
			const status = await js("return document.getElementById('check-status').textContent");
			assert.fail(`timed out waiting for ${what} (check status: ${status})`);
		}
		await sleep(50);
	}
}

/** Waits until the page has answered for crawler `agent` on exactly `urls`. */
function waitForResults(agent, urls) {
	return waitFor(
		`const [agent, urls] = arguments;
		 const shown = Array.from(document.querySelectorAll('#results tbody tr')).map((r) => r.cells[0].firstChild.textContent);
		 return JSON.stringify(shown) === JSON.stringify(urls) &&
		   document.getElementById('check-status').textContent.includes('checked for ' + agent);`,
		`the results for ${agent} on ${urls}`,
		agent,
		urls,
	);
}

/** The result rows' cells: the URL, the three verdicts and the AI usage column. */
const resultRows = () =>
	js("return Array.from(document.querySelectorAll('#results tbody tr')).map((r) => Array.from(r.cells).map((c) => c.textContent))");

/** draft-ietf-aipref-attach-05's example with Cloudflare's content signals (examples/ai-preferences.txt's `*` group). */
const AI_ROBOTS = 'User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n';
const AI_URLS = ['/ai-ok/article', '/never/x', '/'];

/** Types the test into the page: the file, the URLs, the crawler (a known one or a name). */
async function enter(robots, urls, agent) {
	await js(
		`const [robots, urls, agent] = arguments;
		 const set = (id, value) => { const node = document.getElementById(id); node.value = value; node.dispatchEvent(new Event('input')); };
		 set('robots', robots);
		 set('urls', urls.join('\\n'));
		 const crawler = document.getElementById('crawler');
		 crawler.value = agent;
		 if (crawler.value !== agent) { crawler.value = ''; set('custom-agent', agent); }
		 crawler.dispatchEvent(new Event('change'));`,
		robots,
		urls,
		agent,
	);
}

before(async () => {
	assert.ok(SITE && existsSync(join(SITE, 'index.html')), 'ROBOTRULES_STATIC_TESTER names no static tester (cargo xtask static-tester DIR)');
	server = await staticServer(SITE, requests);
	driverPort = await freePort();
	driver = spawn(program('chromedriver', '/usr/bin/chromedriver'), [`--port=${driverPort}`], { stdio: 'ignore' });
	await waitForPort(driverPort);
	profileDir = mkdtempSync(join(tmpdir(), 'robotrules-static-tester-'));
	const created = await wd('POST', '/session', {
		capabilities: {
			alwaysMatch: {
				'goog:chromeOptions': {
					binary: program('chromium', '/usr/bin/chromium'),
					args: [
						'--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
						'--disable-background-networking', '--disable-component-update', '--disable-sync',
						'--disable-dev-shm-usage', '--window-size=1280,1000', `--user-data-dir=${profileDir}`,
					],
				},
			},
		},
	});
	session = created.sessionId;
});

after(async () => {
	if (session) await wd('DELETE', `/session/${session}`).catch(() => {});
	driver?.kill();
	server?.close();
	if (profileDir) rmSync(profileDir, { recursive: true, force: true });
});

test('the static tester answers on WebAssembly: verdicts, lint, the deciding line, a shared link', { timeout: 120_000 }, async () => {
	const base = `http://127.0.0.1:${server.address().port}/`;
	await goto(base);
	// The page's own example, answered without a server.
	await waitForResults('Googlebot', ['/', '/private/secret', '/private/public-page']);
	assert.equal(await js('return document.body.dataset.engine'), 'wasm');

	// Verdicts under the three profiles, each with its deciding line.
	await enter(ROBOTS, URLS, 'ExampleBot');
	await waitForResults('ExampleBot', URLS);
	const rows = await resultRows();
	// The file has no Content-Usage or Content-Signal line: the usage column says so.
	assert.deepEqual(rows.map((row) => row[4]), Array(4).fill('no usage lines'));
	assert.deepEqual(
		rows[0].slice(1, 4),
		Array(3).fill('disallowedline 2: disallow: /private/'),
		'a disallowed URL, decided by line 2 under every profile',
	);
	// The longest match wins for RFC 9309 and Google; the first match for the 1994 convention.
	assert.deepEqual(rows[1].slice(1, 4), [
		'allowedline 4: allow: /private/press/',
		'allowedline 4: allow: /private/press/',
		'disallowedline 2: disallow: /private/',
	]);
	assert.deepEqual(rows[2].slice(1, 4), Array(3).fill('allowed(no-matching-rule)'));
	// `/*.pdf$` is a pattern for RFC 9309 and Google, a literal path for the 1994 convention.
	assert.deepEqual(rows[3].slice(1, 4), [
		'disallowedline 5: disallow: /*.pdf$',
		'disallowedline 5: disallow: /*.pdf$',
		'allowed(no-matching-rule)',
	]);
	assert.deepEqual(
		await js("return Array.from(document.querySelectorAll('#results tbody tr')).map((r) => r.classList.contains('disagree'))"),
		[false, true, false, true],
	);

	// Lint: the misspelt directive on line 3, in the list and as a gutter marker.
	await waitFor("return document.querySelector('#lint-list li[data-line=\"3\"]') !== null", 'a lint finding on line 3');
	const finding = await js("const li = document.querySelector('#lint-list li[data-line=\"3\"]'); return [li.dataset.code, li.textContent]");
	assert.match(finding[1], /^line 3: (error|warning|note) /, finding[1]);
	assert.match(finding[1], /disalow/i, finding[1]);
	assert.equal(await js("return document.querySelector('#gutter .ln[data-line=\"3\"] .marker') !== null"), true);
	assert.notEqual(await js("return document.getElementById('lint-summary').textContent"), '');

	// Selecting a result highlights its deciding line and explains it.
	await js("document.querySelectorAll('#results tbody tr')[0].dispatchEvent(new Event('click'))");
	const deciding = await js("return document.getElementById('deciding').textContent");
	assert.ok(deciding.startsWith('rfc9309: blocked by line 2: disallow: /private/'), deciding);
	assert.equal(await js("return document.querySelector('#gutter .ln.hl').dataset.line"), '2');
	await waitFor("return document.getElementById('explanation').textContent.includes('rfc9309: disallowed')", 'the explanation');

	// What needs the server is disabled, and says so.
	assert.equal(await js("return document.getElementById('load-url').disabled && document.getElementById('compare').disabled"), true);
	assert.match(await js("return document.getElementById('load-status').textContent"), /robotrules serve/);

	// A shared link reproduces the test in a fresh page.
	await js("document.getElementById('share').click()");
	const link = await js('return location.href');
	assert.ok(link.startsWith(base + '#s='), link);
	await goto('about:blank');
	await goto(link);
	await waitForResults('ExampleBot', URLS);
	assert.equal(await js("return document.getElementById('robots').value"), ROBOTS);
	assert.equal(await js("return document.getElementById('custom-agent').value"), 'ExampleBot');
	assert.deepEqual(await resultRows(), rows);

	// The AI usage column, as the server's page shows it: the combined answers with their lines.
	await enter(AI_ROBOTS, AI_URLS, 'ExampleBot');
	await waitForResults('ExampleBot', AI_URLS);
	assert.deepEqual((await resultRows()).map((row) => row[4]), [
		'train-ai: disallowedline 2search: allowedline 2',
		'not crawlable, no preference',
		'train-ai: disallowedline 2, 5search: allowedline 2',
	]);

	// Only the site's files were asked for: no request reached an API.
	assert.deepEqual(requests.filter((path) => path.startsWith('/api')), []);
	assert.ok(requests.includes('/robotrules_js_bg.wasm'), requests.join(' '));
});
