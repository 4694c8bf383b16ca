// The package's API, through its ESM entry point, as installed from the packed tarball.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

import { Robots, Crawler, InvalidAgent, InvalidUrl, lint, crawlerToken, PROFILES, init } from 'robotrules';

const BODY = `User-agent: *
Disallow: /private/
Allow: /private/press/
Crawl-delay: 2.5
Request-rate: 1/10s

User-agent: ExampleBot
Disallow: /bot-only
Visit-time: 0600-0845

Sitemap: https://example.com/sitemap.xml
Sitemap: /relative.xml
`;

test('the CommonJS and ESM entry points are one module', async () => {
	const cjs = createRequire(import.meta.url)('robotrules');
	assert.equal(cjs.Robots, Robots);
	assert.equal(cjs.InvalidUrl, InvalidUrl);
	assert.deepEqual(PROFILES, ['rfc9309', 'google', 'legacy1994']);
	await init(); // a no-op on Node.js, there for code shared with browsers
});

test('Robots.parse: isAllowed, sitemaps, diagnostics', () => {
	const robots = Robots.parse(BODY);
	assert.equal(robots.profile, 'rfc9309');
	assert.equal(robots.isAllowed('OtherBot', 'https://example.com/private/x'), false);
	assert.equal(robots.isAllowed('OtherBot', 'https://example.com/private/press/1'), true);
	assert.equal(robots.isAllowed('ExampleBot', 'https://example.com/private/x'), true);
	assert.equal(robots.isAllowed('ExampleBot', '/bot-only/x'), false);
	assert.deepEqual(robots.sitemaps, ['https://example.com/sitemap.xml', '/relative.xml']);
	assert.deepEqual(robots.sitemapsFrom('https://example.com/robots.txt'), [
		'https://example.com/sitemap.xml',
		'https://example.com/relative.xml'
	]);
	assert.deepEqual(robots.diagnostics, []);
	assert.equal(robots.bytesRead, new TextEncoder().encode(BODY).length);
	robots.free();
});

test('a body as bytes, and each profile', () => {
	const bytes = new TextEncoder().encode('user-agent: *\ndisallow: /a\n');
	for (const profile of PROFILES) {
		const robots = Robots.parse(bytes, { profile });
		assert.equal(robots.profile, profile);
		assert.equal(robots.isAllowed('bot', '/a/b'), false);
		robots.free();
	}
	assert.equal(Robots.parse(bytes.buffer).isAllowed('bot', '/a'), false);
	assert.throws(() => Robots.parse('', { profile: 'googel' }), RangeError);
	assert.throws(() => Robots.parse(42), TypeError);
	assert.throws(() => Robots.parse('', { parseLimit: -1 }), RangeError);
	// The parse limit cuts the file (RFC 9309 §2.5).
	const cut = Robots.parse('user-agent: *\ndisallow: /a\n', { parseLimit: 14 });
	assert.equal(cut.bytesRead, 14);
	assert.equal(cut.isAllowed('bot', '/a'), true);
});

test('diagnostics carry code, severity, line and span', () => {
	const robots = Robots.parse('disallow: /x\nuser-agent: *\ndissallow: /y\n');
	assert.deepEqual(
		robots.diagnostics.map((d) => [d.code, d.line, d.start, d.end]),
		[['rule-outside-group', 1, 0, 12], ['misspelt-key', 3, 27, 36]]
	);
	assert.equal(typeof robots.diagnostics[0].message, 'string');
	assert.ok(['error', 'warning', 'note'].includes(robots.diagnostics[0].severity));
});

test('crawler: isAllowed, allowedMany, decide, explain, crawlDelay, requestRate', () => {
	const robots = Robots.parse(BODY);
	const crawler = robots.crawler('OtherBot');
	assert.ok(crawler instanceof Crawler);
	assert.equal(crawler.name, 'OtherBot');
	assert.equal(crawler.selection, 'global');
	assert.equal(crawler.isAllowed('https://example.com/private/x'), false);
	const urls = ['https://example.com/', 'https://example.com/private/a', '/private/press/b', 'https://other.example/private/'];
	assert.deepEqual(crawler.allowedMany(urls), [true, false, true, false]);
	assert.deepEqual(crawler.allowedMany(new Set(urls)), [true, false, true, false]);
	assert.deepEqual(crawler.allowedMany([]), []);
	// A URL holding a NUL is still one URL.
	assert.deepEqual(crawler.allowedMany(['/private/\0x', '/a']), [false, true]);
	assert.deepEqual(crawler.decide('https://example.com/private/x'), {
		allowed: false,
		profile: 'rfc9309',
		reason: 'rule-matched',
		decidedBy: { line: 2, kind: 'disallow', pattern: '/private/' }
	});
	assert.deepEqual(crawler.decide('/public'), { allowed: true, profile: 'rfc9309', reason: 'no-matching-rule' });
	const why = crawler.explain('/private/press/1');
	assert.equal(why.allowed, true);
	assert.equal(why.decidedBy.line, 3);
	assert.equal(why.matches.length, 2);
	assert.equal(crawler.crawlDelay, 2.5);
	assert.deepEqual(crawler.requestRate, { requests: 1, seconds: 10 });
	const bot = robots.crawler('examplebot');
	assert.equal(bot.selection, 'exact');
	assert.equal(bot.crawlDelay, null);
	assert.equal(bot.requestRate, null);
	assert.deepEqual(bot.visitTimes, ['0600-0845']);
	assert.deepEqual(bot.extensions, [{ key: 'visit-time', value: '0600-0845', line: 9 }]);
	assert.deepEqual(robots.decide('ExampleBot', '/bot-only').decidedBy, { line: 8, kind: 'disallow', pattern: '/bot-only' });
	assert.equal(robots.crawlDelay('OtherBot'), 2.5);
	assert.deepEqual(robots.requestRate('OtherBot'), { requests: 1, seconds: 10 });
	assert.equal(robots.explain('OtherBot', '/private/x').decidedBy.line, 2);
});

test('allowedMany over many chunks answers as isAllowed one URL at a time', () => {
	for (const profile of PROFILES) {
		const crawler = Robots.parse(BODY, { profile }).crawler('OtherBot');
		const urls = [];
		for (let i = 0; i < 5011; i++) {
			const path = ['/private/', '/private/press/', '/', '/a\0b', '/caf\u00e9', '/x/../private/y', '/\uD800'][i % 7];
			urls.push(i % 3 === 0 ? path : `https://example.com${path}${i}`);
		}
		assert.deepEqual(crawler.allowedMany(urls), urls.map((url) => crawler.isAllowed(url)));
		if (profile !== 'google') {
			const bad = urls.slice();
			bad[3000] = 'not a url';
			bad[4000] = 'also not';
			assert.throws(() => crawler.allowedMany(bad), (e) => e instanceof InvalidUrl && e.url === 'not a url');
		}
	}
});

test('typed errors carry the CLI message and the suggested token', () => {
	const robots = Robots.parse(BODY);
	assert.throws(() => robots.isAllowed('ExampleBot/1.0', '/'), InvalidAgent);
	try {
		robots.crawler('Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)');
		assert.fail('no error');
	} catch (error) {
		assert.ok(error instanceof InvalidAgent && error instanceof Error);
		assert.equal(error.name, 'InvalidAgent');
		assert.equal(error.suggestion, 'ExampleBot');
		assert.match(error.message, /^invalid crawler name ".*": a product token has only letters, digits, `_` and `-` \(RFC 9309 §2\.2\.1\); pass `ExampleBot`$/);
	}
	try {
		robots.isAllowed('ExampleBot', 'example.com/private');
		assert.fail('no error');
	} catch (error) {
		assert.ok(error instanceof InvalidUrl);
		assert.equal(error.url, 'example.com/private');
		assert.equal(error.message, 'cannot read URL "example.com/private": not an absolute url, nor a path starting with `/`');
	}
	const crawler = robots.crawler('ExampleBot');
	assert.throws(() => crawler.allowedMany(['/a', 'nope', 'also-nope']), (e) => e instanceof InvalidUrl && e.url === 'nope');
	assert.throws(() => crawler.decide('nope'), InvalidUrl);
	assert.throws(() => crawler.isAllowed(undefined), TypeError);
	assert.throws(() => crawler.allowedMany(['/a', 1]), TypeError);
	// Google's reading takes any string as a URL.
	assert.equal(Robots.parse('user-agent: *\ndisallow: /\n', { profile: 'google' }).isAllowed('bot', 'nope'), false);
});

test('crawlerToken reads the token out of a full User-Agent header', () => {
	assert.equal(crawlerToken('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'), 'Googlebot');
	assert.equal(crawlerToken('CCBot/2.0 (https://commoncrawl.org/faq/)'), 'CCBot');
	assert.equal(crawlerToken('Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0'), null);
});

test('lint finds with stable codes', () => {
	const report = lint('user-agent: *\ndissallow: /x\n');
	assert.equal(report.findings[0].code, 'misspelt-key');
	assert.equal(report.findings[0].line, 2);
	assert.equal(lint(new TextEncoder().encode('user-agent: *\ndisallow: /x\n'), { profile: 'google' }).findings.length, 0);
	assert.throws(() => lint('', { profile: 'nope' }), RangeError);
});

test('any bytes and any string parse without a throw, lone surrogates included', () => {
	const nasty = [
		'\uD800', '\uDC00x', 'user-agent: *\ndisallow: /\uD800\n', '\uFEFF\0\r\r\n', '<html><body>404</body></html>',
		'user-agent: *\ndisallow: /' + 'a*'.repeat(5000) + 'b$\n', 'x'.repeat(600_000)
	];
	for (const body of nasty) {
		for (const profile of PROFILES) {
			const robots = Robots.parse(body, { profile });
			robots.diagnostics;
			robots.isAllowed('bot', '/\uD800');
			assert.equal(typeof robots.crawler('bot').allowedMany(['/\uDC00', '/a']).length, 'number');
			lint(body, { profile });
		}
	}
	for (let seed = 1; seed < 200; seed++) {
		const bytes = new Uint8Array(seed * 7);
		let x = seed;
		for (let i = 0; i < bytes.length; i++) {
			x = (x * 1103515245 + 12345) >>> 0;
			bytes[i] = x >>> 24;
		}
		Robots.parse(bytes).isAllowed('bot', '/');
	}
	// A lone surrogate in a rule is invalid UTF-8 to the parser: it matches no URL's U+FFFD.
	const robots = Robots.parse('user-agent: *\ndisallow: /\uD800\n', { profile: 'google' });
	assert.equal(robots.isAllowed('bot', '/\uFFFD'), true);
	assert.ok(robots.diagnostics.some((d) => d.code === 'invalid-utf8'), JSON.stringify(robots.diagnostics));
	// Agent and URL strings with lone surrogates are read with U+FFFD in their place.
	assert.throws(() => Robots.parse('').crawler('bot\uD800'), InvalidAgent);
	assert.equal(Robots.parse('user-agent: *\ndisallow: /\uFFFD\n').isAllowed('bot', '/\uDC00'), false);
});

test('a freed object says so, and freeing twice is harmless', () => {
	const robots = Robots.parse(BODY);
	const crawler = robots.crawler('bot');
	robots.free();
	robots.free();
	assert.throws(() => robots.isAllowed('bot', '/'), /this Robots was freed/);
	// The crawler shares the file: it still answers.
	assert.equal(crawler.isAllowed('/private/x'), false);
	crawler[Symbol.dispose ?? Symbol.for('nodejs.dispose')]();
	assert.throws(() => crawler.isAllowed('/'), /this Crawler was freed/);
});

/** The repository's example of AI usage preferences (`Content-Usage`, `Content-Signal`, `License`, `LLM-Policy`). */
const AI_PREFERENCES = readFileSync(new URL('../../../examples/ai-preferences.txt', import.meta.url), 'utf8');

/** One category of one vocabulary in a usage answer. */
function category(usage, vocabulary, label) {
	return usage.vocabularies.find((v) => v.vocabulary === vocabulary).categories.find((c) => c.label === label);
}

function combined(usage, name) {
	return usage.combined.find((c) => c.category === name);
}

test('usage: each vocabulary in its own terms with its lines, and the combined answer', () => {
	const robots = Robots.parse(AI_PREFERENCES);
	const bot = robots.crawler('ExampleBot');
	const ok = bot.usage('https://example.com/ai-ok/article');
	assert.equal(ok.crawlable, true);
	assert.deepEqual(ok.vocabularies.map((v) => v.vocabulary), ['aipref', 'content-signals']);
	// draft-ietf-aipref-attach-05 §3.1: the longest matching Content-Usage path decides.
	assert.deepEqual(category(ok, 'aipref', 'train-ai'), { label: 'train-ai', outcome: 'allowed', lines: [13] });
	assert.deepEqual(category(ok, 'aipref', 'search'), { label: 'search', outcome: 'unknown', lines: [] });
	assert.deepEqual(category(ok, 'content-signals', 'ai-train'), { label: 'ai-train', outcome: 'disallowed', lines: [9] });
	assert.deepEqual(ok.vocabularies[0].applied, [13]);
	// vocab-07 §5.1: the two vocabularies combine most-restrictively.
	assert.deepEqual(combined(ok, 'train-ai'), { category: 'train-ai', outcome: 'disallowed', lines: [9] });
	assert.deepEqual(combined(ok, 'search'), { category: 'search', outcome: 'allowed', lines: [9] });
	const root = bot.usage('/');
	assert.deepEqual(category(root, 'aipref', 'train-ai').lines, [12]);
	assert.deepEqual(combined(root, 'train-ai'), { category: 'train-ai', outcome: 'disallowed', lines: [9, 12] });
	// A URL the crawler may not crawl: no preference.
	assert.deepEqual(bot.usage('/never/x'), { crawlable: false, vocabularies: [], combined: [] });
	assert.deepEqual(robots.usage('GPTBot', '/'), { crawlable: false, vocabularies: [], combined: [] });
	assert.deepEqual(robots.usage('ExampleBot', '/ai-ok/article'), ok);
});

test('usage: the HTTP Content-Usage header is one more statement, combined most-restrictively', () => {
	const robots = Robots.parse(AI_PREFERENCES);
	const bot = robots.crawler('ExampleBot');
	const denied = bot.usage('/ai-ok/article', { header: 'train-ai=n' });
	assert.deepEqual(category(denied, 'aipref', 'train-ai'), { label: 'train-ai', outcome: 'disallowed', lines: [], header: true });
	const search = bot.usage('/ai-ok/article', { header: new TextEncoder().encode('search=n') });
	assert.deepEqual(combined(search, 'search'), { category: 'search', outcome: 'disallowed', lines: [], header: true });
	// A header that agrees with the file decides too; one that does not parse states nothing.
	assert.equal(category(bot.usage('/', { header: 'train-ai=n' }), 'aipref', 'train-ai').header, true);
	assert.deepEqual(bot.usage('/ai-ok/article', { header: 'train-ai=y;;' }), bot.usage('/ai-ok/article'));
	assert.deepEqual(bot.usage('/ai-ok/article', { header: undefined }), bot.usage('/ai-ok/article'));
	// Not crawlable stays without preference, whatever the header says.
	assert.equal(bot.usage('/never/x', { header: 'train-ai=y' }).crawlable, false);
	assert.deepEqual(robots.usage('ExampleBot', '/', { header: 'train-ai=y' }), bot.usage('/', { header: 'train-ai=y' }));
	assert.throws(() => bot.usage('/', { header: 42 }), TypeError);
});

test('usage: a URL the profile cannot read is an InvalidUrl, a bad name an InvalidAgent', () => {
	const robots = Robots.parse(AI_PREFERENCES);
	const bot = robots.crawler('ExampleBot');
	assert.throws(() => bot.usage('ai-ok/article'), (error) => error instanceof InvalidUrl && error.url === 'ai-ok/article');
	assert.throws(() => robots.usage('ExampleBot/1.0', '/'), (error) => error instanceof InvalidAgent && error.suggestion === 'ExampleBot');
	assert.throws(() => bot.usage(42), TypeError);
});

test('decide carries usage when the crawler has usage lines, and only then', () => {
	const robots = Robots.parse(AI_PREFERENCES);
	const bot = robots.crawler('ExampleBot');
	const decision = bot.decide('/ai-ok/article');
	assert.equal(decision.allowed, true);
	assert.deepEqual(decision.usage, bot.usage('/ai-ok/article'));
	assert.deepEqual(bot.decide('/never/x').usage, { crawlable: false, vocabularies: [], combined: [] });
	const plain = Robots.parse(BODY);
	assert.equal('usage' in plain.decide('OtherBot', '/private/x'), false);
	// GPTBot's group has no usage lines (the `*` group's are not its): no usage.
	assert.equal('usage' in robots.decide('GPTBot', '/'), false);
});

test('usageStatements, licenses, llmPolicies and fileSignals', () => {
	const robots = Robots.parse(AI_PREFERENCES);
	const bot = robots.crawler('ExampleBot');
	const statements = bot.usageStatements;
	assert.deepEqual(statements.map((s) => [s.line, s.key, s.vocabulary, s.groupLine]), [
		[9, 'content-signal', 'content-signals', 8],
		[12, 'content-usage', 'aipref', 8],
		[13, 'content-usage', 'aipref', 8]
	]);
	assert.deepEqual(statements[2], {
		line: 13, key: 'content-usage', vocabulary: 'aipref', groupLine: 8, path: '/ai-ok/', preference: 'train-ai=y',
		members: [{ label: 'train-ai', value: { token: 'y' } }]
	});
	assert.deepEqual(statements[0].members, [
		{ label: 'search', value: { token: 'yes' } },
		{ label: 'ai-train', value: { token: 'no' } }
	]);
	assert.deepEqual(robots.crawler('GPTBot').usageStatements, []);
	assert.deepEqual(robots.licenses, ['https://example.com/license.xml']);
	assert.deepEqual(robots.llmPolicies, ['https://example.com/llm-policy.txt']);
	assert.deepEqual(robots.fileSignals, []);

	const wide = Robots.parse('Content-Signal: ai-train=no\nUser-agent: *\nContent-Usage: train-ai=yes;;\nLicense: /l.xml\nLLM-Policy: /llm.txt\n');
	assert.deepEqual(wide.fileSignals, [{ line: 1, value: 'ai-train=no' }]);
	assert.deepEqual(wide.licenses, ['/l.xml']);
	assert.deepEqual(wide.licensesFrom('https://example.com/robots.txt'), ['https://example.com/l.xml']);
	assert.deepEqual(wide.llmPoliciesFrom('https://example.com/robots.txt'), ['https://example.com/llm.txt']);
	const any = wide.crawler('AnyBot');
	const [signal, broken] = any.usageStatements;
	assert.equal('groupLine' in signal, false, 'a file-wide signal stands in no group');
	assert.equal(broken.members, undefined);
	assert.equal(typeof broken.error.offset, 'number');
	// A Dictionary that does not parse gives unknown; the file-wide signal still speaks.
	const usage = any.usage('/');
	assert.deepEqual(usage.vocabularies[0].unparsed, [3]);
	assert.equal(combined(usage, 'train-ai').outcome, 'disallowed');
});
