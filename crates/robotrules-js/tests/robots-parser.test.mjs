// The robots-parser drop-in's own cases: isExplicitlyDisallowed (robots-parser's main branch,
// never released), what it answers for another origin, and where it reads as RFC 9309 and
// Google do rather than as robots-parser 3.0.1 (docs/javascript.md lists every difference).
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

import robotsParser from 'robotrules/robots-parser';

const require = createRequire(import.meta.url);
const original = require('robots-parser');

test('the ESM and CommonJS entry points are one factory', () => {
	assert.equal(require('robotrules/robots-parser'), robotsParser);
});

test('isExplicitlyDisallowed: only a group naming the crawler counts', () => {
	const url = 'https://www.example.com/hello';
	// The `*` group does not name SomeBot.
	assert.equal(robotsParser(url, 'User-agent: *\nDisallow: /\n').isExplicitlyDisallowed(url, 'SomeBot'), false);
	// A group that names it does.
	assert.equal(robotsParser(url, 'User-agent: SomeBot\nDisallow: /\n').isExplicitlyDisallowed(url, 'SomeBot'), true);
	// Another origin: undefined.
	assert.equal(robotsParser('http://example.com', 'User-agent: SomeBot\nDisallow: /\n').isExplicitlyDisallowed(url, 'SomeBot'), undefined);
	// Its group allows the URL: not disallowed, whatever `*` says.
	const both = robotsParser(url, 'User-agent: *\nDisallow: /\n\nUser-agent: SomeBot\nDisallow: /private\n');
	assert.equal(both.isExplicitlyDisallowed(url, 'SomeBot'), false);
	assert.equal(both.isExplicitlyDisallowed('https://www.example.com/private/x', 'SomeBot/2.0'), true);
	assert.equal(both.isDisallowed(url, 'OtherBot'), true);
	assert.equal(both.isExplicitlyDisallowed(url, 'OtherBot'), false);
	// With no user agent, robots-parser asks as `*`: the `*` group is then its own.
	assert.equal(both.isExplicitlyDisallowed(url), true);
	// The crawler named inside a full User-Agent header.
	assert.equal(both.isExplicitlyDisallowed('https://www.example.com/private', 'Mozilla/5.0 (compatible; SomeBot/2.1)'), true);
});

test('another origin: isAllowed is undefined and isDisallowed is true, as robots-parser answers', () => {
	const body = 'User-agent: *\nDisallow: /private\n';
	for (const parser of [robotsParser, original]) {
		const robots = parser('https://example.com/robots.txt', body);
		assert.equal(robots.isAllowed('https://other.example/'), undefined);
		assert.equal(robots.isDisallowed('https://other.example/'), true);
		assert.equal(robots.isAllowed('http://example.com/'), undefined);
		assert.equal(robots.isAllowed('https://example.com:443/'), true);
		assert.equal(robots.getMatchingLineNumber('https://other.example/private'), -1);
	}
});

test('a full User-Agent header names its crawler (robots-parser cuts at the first slash)', () => {
	const body = 'User-agent: Googlebot-News\nDisallow: /\n\nUser-agent: *\nDisallow:\n';
	const ua = 'Mozilla/5.0 (compatible; Googlebot-News/2.1)';
	assert.equal(robotsParser('https://example.com/robots.txt', body).isAllowed('https://example.com/a', ua), false);
	assert.equal(original('https://example.com/robots.txt', body).isAllowed('https://example.com/a', ua), true);
});

test('percent-encoding of unreserved characters is read as RFC 9309 §2.2.2 says', () => {
	const body = 'User-agent: *\nDisallow: /%7Euser\nDisallow: /%61dmin\n';
	const ours = robotsParser('https://example.com/robots.txt', body, { profile: 'rfc9309' });
	assert.equal(ours.isAllowed('https://example.com/~user/x'), false);
	assert.equal(ours.isAllowed('https://example.com/admin'), false);
	const theirs = original('https://example.com/robots.txt', body);
	assert.equal(theirs.isAllowed('https://example.com/~user/x'), true);
	assert.equal(theirs.isAllowed('https://example.com/admin'), true);
});

test('methods answer as robots-parser documents them', () => {
	const body = [
		'User-agent: *', 'Disallow: /dir/', 'Disallow: /test.html', 'Allow: /dir/test.html', 'Allow: /test.html',
		'Crawl-delay: 1', 'Sitemap: http://example.com/sitemap.xml', 'Host: Example.com'
	].join('\n');
	const robots = robotsParser('http://www.example.com/robots.txt', body);
	assert.equal(robots.isAllowed('http://www.example.com/test.html', 'Sams-Bot/1.0'), true);
	assert.equal(robots.isAllowed('http://www.example.com/dir/test.html', 'Sams-Bot/1.0'), true);
	assert.equal(robots.isDisallowed('http://www.example.com/dir/test2.html', 'Sams-Bot/1.0'), true);
	assert.equal(robots.getMatchingLineNumber('http://www.example.com/dir/test2.html', 'Sams-Bot/1.0'), 2);
	assert.equal(robots.getMatchingLineNumber('http://www.example.com/other', 'Sams-Bot/1.0'), -1);
	assert.equal(robots.getCrawlDelay('Sams-Bot/1.0'), 1);
	assert.deepEqual(robots.getSitemaps(), ['http://example.com/sitemap.xml']);
	assert.equal(robots.getPreferredHost(), 'example.com');
	robots.free();
});

test('the profile is an option; google is the default', () => {
	// Google reads `disalow` (a typo it accepts); RFC 9309 does not.
	const body = 'User-agent: *\nDisalow: /x\n';
	assert.equal(robotsParser('https://example.com/robots.txt', body).isAllowed('https://example.com/x'), false);
	assert.equal(robotsParser('https://example.com/robots.txt', body, { profile: 'rfc9309' }).isAllowed('https://example.com/x'), true);
	assert.throws(() => robotsParser('https://example.com/robots.txt', body, { profile: 'nope' }), RangeError);
});

test('no throw on any contents or URL', () => {
	for (const contents of [null, undefined, '', '\uD800', '\0\0', 42, 'User-agent: *\nDisallow: /\uDC00\n']) {
		const robots = robotsParser('https://example.com/robots.txt', contents);
		for (const url of ['https://example.com/\uD800', '::::', '', 'https://example.com/%zz', '/x']) {
			robots.isAllowed(url, '\uDC00bot');
			robots.isExplicitlyDisallowed(url, 'Bot/1.0 (x)');
			robots.getMatchingLineNumber(url);
		}
		robots.getCrawlDelay('Mozilla/5.0');
	}
});
