// The hot paths write their strings into a scratch buffer in WebAssembly memory themselves
// (crates/robotrules-js/src/scratch.rs): `crawler.isAllowed(url)`, `allowedMany(urls)` and
// `Robots.parse(string)`. Whatever the string (outside ASCII, lone surrogates, NULs, longer
// than the buffer), they answer as the generic path that hands wasm-bindgen the string:
// `robots.isAllowed(agent, url)`, and `Robots.parse` of the same text's bytes.
import test from 'node:test';
import assert from 'node:assert/strict';

import { Robots, PROFILES, memoryBytes } from 'robotrules';

const SCRATCH = 64 * 1024;
// Holds no lone surrogate (String.prototype.isWellFormed is Node.js 20's).
const wellFormed = (text) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
const BODY = 'User-agent: *\nDisallow: /private/\nAllow: /private/press/\nDisallow: /caf\u00e9\nDisallow: /*\u{1F600}\nDisallow: /long/x\n';

/** The answer or the error's kind and message, for comparing paths that may throw. */
function outcome(ask) {
	try {
		return ask();
	} catch (error) {
		return `${error.name}: ${error.message}`;
	}
}

const URLS = [
	'/private/a',
	'/private/press/x',
	'https://example.com/private/a',
	'/caf\u00e9/menu',
	'/caf%C3%A9/menu',
	'/x\u{1F600}',
	'/x\uD83D',
	'/\uDE00x',
	'/a\0b',
	'',
	'not a url',
	`/long/${'x'.repeat(SCRATCH)}`,
	`/long/x${'\u00e9'.repeat(SCRATCH / 2)}`,
	`https://example.com/${'y'.repeat(SCRATCH - 20)}`,
	`/${'z'.repeat(SCRATCH - 1)}`,
	`/${'z'.repeat(SCRATCH)}`,
];

test('crawler.isAllowed answers as the generic path, whatever the URL', () => {
	for (const profile of PROFILES) {
		const robots = Robots.parse(BODY, { profile });
		const crawler = robots.crawler('bot');
		for (const url of URLS) {
			assert.deepEqual(outcome(() => crawler.isAllowed(url)), outcome(() => robots.isAllowed('bot', url)), `${profile} ${url.slice(0, 40)}`);
		}
	}
});

test('allowedMany answers as isAllowed, in chunks cut by the buffer and around long URLs', () => {
	for (const profile of PROFILES) {
		const robots = Robots.parse(BODY, { profile });
		const crawler = robots.crawler('bot');
		const readable = URLS.filter((url) => typeof outcome(() => robots.isAllowed('bot', url)) === 'boolean');
		const urls = [];
		for (let i = 0; i < 3000; i++) urls.push(readable[(i * 7) % readable.length]);
		assert.deepEqual(crawler.allowedMany(urls), urls.map((url) => robots.isAllowed('bot', url)), profile);
		for (const url of readable) assert.deepEqual(crawler.allowedMany([url]), [robots.isAllowed('bot', url)]);
		const refused = URLS.find((url) => typeof outcome(() => robots.isAllowed('bot', url)) !== 'boolean');
		if (refused !== undefined) {
			assert.equal(outcome(() => crawler.allowedMany([URLS[11], '/ok', refused, '/ok'])), outcome(() => robots.isAllowed('bot', refused)));
		}
	}
});

test('Robots.parse of a string reads the bytes TextEncoder gives, at any size', () => {
	const big = `${'# filler line\n'.repeat(20_000)}User-agent: *\nDisallow: /late\u00e9\n`;
	// Outside ASCII all along: the buffer fills up in the middle of a character.
	const wide = `${'# caf\u00e9 \u{1F600}\n'.repeat(9_000)}User-agent: *\nDisallow: /late\u00e9\n`;
	const bodies = [BODY, '', '\uFEFFuser-agent: *\ndisallow: /\n', 'user-agent: *\ndisallow: /\uD800\n', big, `${big}\uDC00`, wide, `\uD800${wide}`];
	for (const profile of PROFILES) {
		for (const body of bodies) {
			for (const parseLimit of [undefined, 100, 300_000]) {
				const options = { profile, parseLimit };
				const robots = Robots.parse(body, options);
				const bytes = Robots.parse(wellFormed(body) ? new TextEncoder().encode(body) : body, options);
				assert.equal(robots.bytesRead, bytes.bytesRead);
				assert.deepEqual(robots.diagnostics, bytes.diagnostics);
				for (const url of ['/late\u00e9', '/late%C3%A9', '/private/a', '/', '/x\u{1F600}']) {
					assert.equal(robots.isAllowed('bot', url), bytes.isAllowed('bot', url), `${profile} ${url}`);
				}
				robots.free();
				bytes.free();
			}
		}
	}
});

test('a big body is given back after its parse: parsing it again and again keeps the memory flat', () => {
	const big = `User-agent: *\n${'Disallow: /caf\u00e9/*.pdf$\n'.repeat(40_000)}`;
	Robots.parse(big).free();
	const before = memoryBytes();
	for (let i = 0; i < 30; i++) {
		Robots.parse(big).free();
		Robots.parse(`${big}# ${i}\n`).free();
		assert.equal(Robots.parse(BODY).crawler('bot').isAllowed('/private/a'), false);
	}
	assert.equal(memoryBytes(), before);
});
