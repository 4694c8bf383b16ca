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

test('a URL is read as new URL reads it, on the short way for plain URLs and the long way for the rest', async () => {
	const { Robots } = await import('robotrules');
	// Rules that tell apart the spellings `new URL` changes: `'` and `%27` in a query, dot
	// segments, escapes upper-cased, `%2e`, backslashes, an empty query, spaces and non-ASCII.
	const rules = ["/*'", '/*%27', '/*/./', '/*/../', '/*/.$', '/a/b', '/*%2e', '/*%2E', '/*.', '/*\\', '/*%5C',
		'/*?$', '/*?', '/*%3F', '/*%3f', '/*#', '/*%23', '/* ', '/*%20', '/*%C3%A9', '/*é', '/*|', '/*%7C',
		'/*[', '/*^', '/*{', '/*"', '/*%22', '/*<', '/*`', '/*a?b', '/*:@', '/*~', '/*%7E', '/*!$&()*+,;=', '/x'];
	const body = 'User-agent: *\n' + rules.map((rule) => `Disallow: ${rule}\n`).join('');
	const base = 'https://www.example.com/robots.txt';
	const reference = Robots.parse(body, { profile: 'google' }).crawler('ExampleBot');
	// robots-parser's reading of a URL, written out: same origin, then the path and query.
	const expected = (url) => {
		let parsed;
		try {
			parsed = new URL(url, 'http://robots-relative.invalid/');
		} catch {
			return undefined;
		}
		const port = (u) => u.port || { 'http:': '80', 'https:': '443', 'ftp:': '21' }[u.protocol] || '';
		const own = new URL(base);
		if (parsed.protocol !== own.protocol || parsed.hostname !== own.hostname || port(parsed) !== port(own)) return undefined;
		const path = (parsed.pathname + parsed.search).replace(/%[0-9a-f]{2}/gi, (e) => e.toUpperCase());
		const decision = reference.decide(path);
		return { allowed: reference.isAllowed(path), line: decision.decidedBy ? decision.decidedBy.line : -1 };
	};
	const robots = robotsParser(base, body);
	const origins = ['https://www.example.com', 'https://WWW.example.com', 'HTTPS://www.Example.COM', 'https://www.example.com:443',
		'http://www.example.com', 'https://www.example.com:8443', 'https://user@www.example.com', ''];
	const alphabet = ["a", "b", "/", "/", ".", ".", "?", "'", "%", "2", "e", "E", "7", "c", "#", "\\", " ", "\t",
		"~", ":", "@", "!", "$", "&", "(", "*", "+", ",", ";", "=", "[", "|", "^", "{", '"', "<", "`", "é", "\uD800"];
	let state = 0x2545f491;
	const next = (n) => {
		state ^= state << 13; state ^= state >>> 17; state ^= state << 5;
		return (state >>> 0) % n;
	};
	// Each spelling the short way must leave to `new URL`, and some it takes.
	const written = ['/a/%2e/b', '/a/%2E%2e/b', '/a/.%2e?x', '/x/%2e', '/a/./b', '/a/../b', '/x/.', '/x/..?q',
		"/x?q='", '/x?', '/x?#f', '/a/b#frag', '/A%2fb', '/a%7eb', '/x%zz', '/a\\b', '/a b', '/é', '/a\tb',
		'/a/b?c=%2e/../d', '/a/b?x=1&y=(2)*;:@!$', '/..', '/%2e%2e'];
	for (const rest of written) {
		for (const origin of ['https://www.example.com', 'HTTPS://WWW.EXAMPLE.COM', 'https://www.example.com:443']) {
			const url = origin + rest;
			const want = expected(url);
			assert.equal(robots.isAllowed(url, 'ExampleBot'), want.allowed, url);
			assert.equal(robots.getMatchingLineNumber(url, 'ExampleBot'), want.line, url);
		}
	}
	let short = 0;
	for (let i = 0; i < 5000; i++) {
		// Half the URLs from the characters the short way takes (the first 6 and `~` to `=`),
		// half from all of them.
		const letters = next(2) === 0 ? alphabet : alphabet.slice(0, 6).concat(alphabet.slice(18, 30));
		let rest = '/';
		for (let k = next(14); k > 0; k--) rest += letters[next(letters.length)];
		// Half the URLs on the file's own origin as written, half on any of the origins.
		const url = (next(2) === 0 ? origins[0] : origins[next(origins.length)]) + rest;
		const want = expected(url);
		const line = robots.getMatchingLineNumber(url, 'ExampleBot');
		assert.equal(robots.isAllowed(url, 'ExampleBot'), want === undefined ? undefined : want.allowed, url);
		assert.equal(line, want === undefined ? -1 : want.line, url);
		if (url.toLowerCase().startsWith('https://www.example.com/') && /^[A-Za-z0-9\-._~!$&()*+,;=:@/?%]*$/.test(rest.split('#')[0])) short++;
	}
	// Both ways were taken, many times each.
	assert.ok(short > 800 && short < 4200, `${short} of 5000 URLs were plain`);
	robots.free();
	reference.free();
});

test('the crawler asked about last is remembered, and a new User-Agent is read again', () => {
	const robots = robotsParser('https://example.com/robots.txt', 'User-agent: a\nDisallow: /\n\nUser-agent: b\nDisallow: /b\n');
	const url = 'https://example.com/b';
	for (let round = 0; round < 3; round++) {
		// More User-Agents than the drop-in keeps resolved (16): the remembered one is let go
		// with the others, never used after it is freed.
		for (let n = 0; n < 20; n++) assert.equal(robots.isAllowed(url, `other${n}`), true);
		assert.equal(robots.isAllowed(url, 'a/1.0'), false);
		assert.equal(robots.isAllowed('https://example.com/c', 'a/1.0'), false);
		assert.equal(robots.isAllowed('https://example.com/c', 'b'), true);
		assert.equal(robots.isAllowed(url, 'b'), false);
		assert.equal(robots.isAllowed(url), true);
		assert.equal(robots.isAllowed(url, undefined), true);
		assert.equal(robots.isAllowed(url, 'a'), false);
	}
	robots.free();
});

test('a ua whose toString asks the same parser about other crawlers is read before its crawler is asked', () => {
	const url = 'https://example.com/x';
	// A `ua` read as `*` asks as the `*` group, which is then its own (as with no `ua`): to know,
	// isExplicitlyDisallowed reads `ua` a second time.
	const robots = robotsParser('https://example.com/robots.txt', 'User-agent: *\nDisallow: /\n');
	// Asking about more crawlers than the drop-in keeps resolved lets go of the ones it has.
	const tricky = {
		toString() {
			for (let n = 0; n < 20; n++) robots.isAllowed(url, `other${n}`);
			return '*';
		}
	};
	assert.equal(robots.isExplicitlyDisallowed(url, tricky), true);
	assert.equal(robots.isAllowed(url, tricky), false);
	robots.free();
});
