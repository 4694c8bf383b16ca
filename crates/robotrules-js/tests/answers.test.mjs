// The answer tables in `conformance/answers/`, through the npm package: the same tables run
// through the Rust facade and the Python package, so that no surface reads them differently.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { Robots, InvalidUrl, governs, statusAccess } from 'robotrules';

const ANSWERS = new URL('../../../conformance/answers/', import.meta.url);

function table(name) {
	return readFileSync(new URL(name, ANSWERS), 'utf8')
		.split('\n')
		.filter((line) => line.trim() !== '' && !line.startsWith('#'))
		.map((line) => line.split('\t'));
}

test('statusAccess follows its table', () => {
	const rows = table('status-access.tsv');
	assert.ok(rows.length > 20, `${rows.length} rows`);
	for (const [status, location, tooManyRequests, expected] of rows) {
		const access = statusAccess(Number(status), { hasLocation: location === 'yes', tooManyRequests });
		assert.equal(access, expected, `${status} ${location} ${tooManyRequests}`);
	}
});

test('statusAccess refuses what is not a status or a reading of 429', () => {
	assert.throws(() => statusAccess(429, { tooManyRequests: 'allow' }), RangeError);
	assert.throws(() => statusAccess(-1), RangeError);
	assert.throws(() => statusAccess(2.5), RangeError);
	assert.equal(statusAccess(404), 'unavailable');
	assert.equal(statusAccess(429), 'unreachable');
});

test('a user agent stands for the crawler its table names', () => {
	const rows = table('crawler-name.tsv');
	assert.ok(rows.length > 10, `${rows.length} rows`);
	for (const [userAgent, profile, expected] of rows) {
		const robots = Robots.parse('user-agent: *\ndisallow: /x\n', { profile });
		assert.equal(robots.crawlerNameFor(userAgent), expected, `${userAgent} ${profile}`);
		const crawler = robots.crawlerFor(userAgent);
		assert.equal(crawler.name, expected, `${userAgent} ${profile}`);
		crawler.free();
		robots.free();
	}
});

test('nameReading and governs', () => {
	const robots = Robots.parse('user-agent: *\ndisallow: /\n\nuser-agent: MJ12bot\ndisallow: /x\n', { profile: 'google' });
	const reading = robots.nameReading('MJ12bot');
	assert.equal(reading.name, 'MJ12bot');
	assert.equal(reading.reads, 'MJ');
	assert.equal(reading.token, 'MJ');
	assert.ok(reading.message.endsWith('it gets the `*` group at line 1; pass `MJ`, which gets the group at line 4'), reading.message);
	assert.equal(robots.nameReading('Googlebot'), null);
	robots.free();
	assert.equal(governs('https://example.com/robots.txt', 'https://EXAMPLE.com:443/a'), true);
	assert.equal(governs('https://example.com/robots.txt', 'https://www.example.com/a'), false);
	assert.equal(governs('https://example.com/robots.txt', '/a'), true);
	assert.throws(() => governs('https://example.com/robots.txt', 'example.com/a'), InvalidUrl);
});
