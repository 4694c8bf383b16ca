// A real Crawlee crawl (crawlee 3.18.1, pinned; `robots-parser` overridden with the robotrules
// drop-in, see package.json) of loopback HTTP servers serving several robots.txt files: which
// pages are downloaded and which are skipped, with Crawlee's own robots.txt handling and with
// the fail-closed adapter `robotrules/crawlee`.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';

import { CheerioCrawler, Configuration, log } from 'crawlee';
import { failClosed, RobotsCache } from 'robotrules/crawlee';

log.setLevel(log.LEVELS.OFF);

/** A loopback server answering `robots` for /robots.txt (a body, or a status) and a page elsewhere; its hits. */
async function site(robots) {
	const hits = [];
	const server = createServer((request, response) => {
		hits.push({ path: request.url, at: Date.now() });
		if (request.url === '/robots.txt') {
			if (typeof robots === 'number') {
				response.writeHead(robots, { 'content-type': 'text/html' });
				response.end(`<html><body>${robots}</body></html>`);
			} else {
				response.writeHead(200, { 'content-type': 'text/plain' });
				response.end(robots);
			}
			return;
		}
		response.writeHead(200, { 'content-type': 'text/html' });
		response.end(`<html><head><title>${request.url}</title></head><body>page</body></html>`);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const origin = `http://127.0.0.1:${server.address().port}`;
	return { origin, hits, pages: () => hits.filter((h) => h.path !== '/robots.txt').map((h) => h.path), close: () => new Promise((r) => server.close(r)) };
}

/** An origin whose port refuses connections. */
async function refusedOrigin() {
	const server = createServer();
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = server.address().port;
	await new Promise((resolve) => server.close(resolve));
	return `http://127.0.0.1:${port}`;
}

/** Crawls `urls` (with the adapter when `adapt`), and says what was handled, skipped and failed. */
async function crawl(urls, adapt) {
	const handled = [];
	const skipped = [];
	const failed = [];
	const crawler = new CheerioCrawler(
		{
			respectRobotsTxtFile: true,
			maxRequestRetries: 0,
			maxConcurrency: 2,
			requestHandlerTimeoutSecs: 10,
			navigationTimeoutSecs: 5,
			requestHandler: async ({ request }) => handled.push(request.url),
			failedRequestHandler: async ({ request }) => failed.push(request.url),
			onSkippedRequest: async ({ url, reason }) => skipped.push(`${reason} ${url}`)
		},
		new Configuration({ persistStorage: false, purgeOnStart: true })
	);
	const cache = adapt ? failClosed(crawler, { timeoutMillis: 2000 }) : null;
	await crawler.run(urls);
	if (cache) cache.clear();
	return { handled: handled.sort(), skipped: skipped.sort(), failed: failed.sort() };
}

test('a Crawlee crawl on the drop-in: disallowed pages skipped, 503 and refused robots.txt fail open', async () => {
	const rules = await site('User-agent: *\nDisallow: /private\n');
	const down = await site(503);
	const missing = await site(404);
	const refused = await refusedOrigin();
	try {
		const urls = [`${rules.origin}/public`, `${rules.origin}/private/x`, `${down.origin}/page`, `${missing.origin}/page`, `${refused}/page`];
		const result = await crawl(urls, false);
		assert.deepEqual(result.handled, [`${down.origin}/page`, `${missing.origin}/page`, `${rules.origin}/public`].sort());
		assert.deepEqual(result.skipped, [`robotsTxt ${rules.origin}/private/x`]);
		// Crawlee reads robots.txt as allowing everything when it answers 503 or cannot be
		// reached: it fetched the page behind a 503 and tried the refused one.
		assert.deepEqual(result.failed, [`${refused}/page`]);
		assert.deepEqual(rules.pages(), ['/public']);
		assert.deepEqual(down.pages(), ['/page']);
	} finally {
		await Promise.all([rules.close(), down.close(), missing.close()]);
	}
});

test('robotrules/crawlee fails closed: 503 and a refused port disallow, 404 allows', async () => {
	const rules = await site('User-agent: *\nDisallow: /private\n');
	const down = await site(503);
	const missing = await site(404);
	const refused = await refusedOrigin();
	try {
		const urls = [`${rules.origin}/public`, `${rules.origin}/private/x`, `${down.origin}/page`, `${missing.origin}/page`, `${refused}/page`];
		const result = await crawl(urls, true);
		assert.deepEqual(result.handled, [`${missing.origin}/page`, `${rules.origin}/public`].sort());
		assert.deepEqual(result.skipped, [`robotsTxt ${down.origin}/page`, `robotsTxt ${refused}/page`, `robotsTxt ${rules.origin}/private/x`].sort());
		assert.deepEqual(result.failed, []);
		assert.deepEqual(down.pages(), []);
		// robots.txt was fetched once per origin.
		assert.equal(rules.hits.filter((h) => h.path === '/robots.txt').length, 1);
	} finally {
		await Promise.all([rules.close(), down.close(), missing.close()]);
	}
});

test('robotrules/crawlee honours crawl-delay between requests to one origin', async () => {
	const slow = await site('User-agent: *\nCrawl-delay: 1\n');
	try {
		await crawl([`${slow.origin}/1`, `${slow.origin}/2`, `${slow.origin}/3`], true);
		const times = slow.hits.filter((h) => h.path !== '/robots.txt').map((h) => h.at).sort((a, b) => a - b);
		assert.equal(times.length, 3);
		// The adapter spaces its requests a second apart when they leave; when they arrive here
		// varies with the machine's load by up to a few hundred milliseconds. Without the
		// adapter they arrive within tens of milliseconds of each other.
		for (let i = 1; i < times.length; i++) assert.ok(times[i] - times[i - 1] >= 500, `${times[i] - times[i - 1]} ms apart`);
	} finally {
		await slow.close();
	}
});

test('robotrules/crawlee reads 429 as the Rust client does: unreachable unless asked otherwise', async () => {
	const busy = await site(429);
	try {
		const strict = new RobotsCache();
		assert.equal((await strict.entry(`${busy.origin}/`)).access, 'unreachable');
		assert.equal(await strict.isAllowed(`${busy.origin}/page`), false);
		const literal = new RobotsCache({ tooManyRequests: 'unavailable' });
		assert.equal((await literal.entry(`${busy.origin}/`)).access, 'unavailable');
		assert.equal(await literal.isAllowed(`${busy.origin}/page`), true);
		assert.throws(() => new RobotsCache({ tooManyRequests: 'allow' }), RangeError);
	} finally {
		await busy.close();
	}
});

test('an unknown profile is refused when the adapter is made', () => {
	assert.throws(() => failClosed({}, { profile: 'googel' }), RangeError);
});

test('the drop-in is what Crawlee loads as robots-parser', () => {
	const require = createRequire(import.meta.url);
	const fromCrawlee = createRequire(require.resolve('@crawlee/utils'))('robots-parser');
	assert.equal(fromCrawlee, require('robotrules/robots-parser'));
});
