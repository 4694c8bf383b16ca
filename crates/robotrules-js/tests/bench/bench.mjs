// Side by side in one Node.js process: the robotrules npm package and robots-parser 3.0.1, on
// the repository's real sample and crawl-like URLs (those of crates/robotrules-bench/src/urls.rs).
//
//     cargo xtask js                                   # builds and installs the package here
//     node crates/robotrules-js/tests/bench/bench.mjs [SAMPLE_DIR] [PROFILE]
//
// The sample folder is `ROBOTRULES_REAL_SAMPLE`, or `shared/corpora/real-sample` beside the
// repository (as the Rust benches find it); the profile is `google` unless given. Figures are
// printed, never asserted. Each figure is the best of several passes, in wall time and in the
// process's CPU time (`process.cpuUsage`, which leaves out time spent waiting for a core on a
// loaded machine).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

import { Robots } from 'robotrules';

const require = createRequire(import.meta.url);
const robotsParser = require('robots-parser');
const dropIn = require('robotrules/robots-parser');

const here = dirname(fileURLToPath(import.meta.url));
const sampleDir = process.argv[2] || process.env.ROBOTRULES_REAL_SAMPLE || resolve(here, '../../../../../shared/corpora/real-sample');
const PROFILE = process.argv[3] || 'google';
const PASSES = 5;
const AGENT = 'ExampleBot';
const ROBOTS_URL = 'https://www.example.com/robots.txt';

// crates/robotrules-bench/src/urls.rs
const ORIGIN = 'https://www.example.com';
const MIXED_CASE_ORIGIN = 'https://WWW.Example.COM';
const CRAWL_PATHS = [
	'/blog/2024/05/17/how-we-rebuilt-our-search-index-for-speed-and-scale/',
	'/shop/Category/Running-Shoes/index.html',
	'/search?q=caf%C3%A9+au+lait&sort=price_asc&page=3',
	'/wp-content/uploads/2023/11/Product%20Photo%20(1).JPG',
	'/products/12345/reviews/?utm_source=newsletter&utm_medium=email&utm_campaign=spring#reviews',
	'/de/damen/bekleidung/kleider/sommerkleid-blau-42.html?color=blue&size=M',
	'/wiki/Caf%c3%a9_Society',
	'/index.php?option=com_content&view=article&id=42&Itemid=7'
];
const MAX_RULE_PATHS = 4;

/** The paths of allow/disallow lines that start with `/`, in file order, made concrete (urls.rs `rule_paths`). */
function rulePaths(text) {
	const out = [];
	for (const raw of text.split('\n')) {
		const line = raw.split('#')[0];
		const colon = line.indexOf(':');
		if (colon < 0) continue;
		const key = line.slice(0, colon).trim().toLowerCase();
		let value = line.slice(colon + 1).trim();
		if (value.endsWith('$')) value = value.slice(0, -1);
		if ((key !== 'allow' && key !== 'disallow') || !value.startsWith('/')) continue;
		out.push([...value].map((c) => (c === '*' ? 'x' : /^[\x21-\x7e]$/.test(c) ? c : '_')).join(''));
	}
	return out;
}

/** urls.rs `crawl_urls_for`. */
function crawlUrls(text) {
	const urls = CRAWL_PATHS.map((p, i) => (i % 2 === 1 ? MIXED_CASE_ORIGIN : ORIGIN) + p);
	for (const path of rulePaths(text).slice(0, MAX_RULE_PATHS)) {
		const dir = path.endsWith('/') ? '' : '/';
		urls.push(`${ORIGIN}${path}${dir}index.html`);
		urls.push(`${MIXED_CASE_ORIGIN}${path}?sessionid=AbC123&ref=%2Fhome%2F#top`);
	}
	return urls;
}

/** The best of PASSES runs of `fn`: [wall ms, CPU ms]. */
function timed(fn) {
	let wall = Infinity;
	let cpu = Infinity;
	for (let i = 0; i < PASSES; i++) {
		const c0 = process.cpuUsage();
		const t0 = performance.now();
		fn();
		const t1 = performance.now();
		const c1 = process.cpuUsage(c0);
		wall = Math.min(wall, t1 - t0);
		cpu = Math.min(cpu, (c1.user + c1.system) / 1000);
	}
	return [wall, cpu];
}

function show(label, [wall, cpu], count, unit) {
	const per = (ms) => (unit === 'ns' ? `${((ms * 1e6) / count).toFixed(0)} ns` : `${((ms * 1e3) / count).toFixed(2)} µs`);
	console.log(`${label.padEnd(58)} ${per(wall).padStart(10)} wall ${per(cpu).padStart(10)} CPU   (${count} × best of ${PASSES})`);
	return [wall / count, cpu / count];
}

function ratio(label, theirs, ours) {
	console.log(`${label.padEnd(58)} ${(theirs[0] / ours[0]).toFixed(1).padStart(8)}× wall ${(theirs[1] / ours[1]).toFixed(1).padStart(8)}× CPU`);
}

const files = readdirSync(sampleDir)
	.map((name) => join(sampleDir, name))
	.filter((path) => statSync(path).isFile())
	.sort();
const bytes = files.map((path) => new Uint8Array(readFileSync(path)));
const texts = bytes.map((b) => new TextDecoder().decode(b));
const size = bytes.reduce((n, b) => n + b.length, 0);
const urlsOf = texts.map(crawlUrls);
const urlCount = urlsOf.reduce((n, u) => n + u.length, 0);
console.log(`sample: ${files.length} files, ${(size / 1e6).toFixed(1)} MB (${sampleDir}); ${urlCount} crawl-like URLs; profile ${PROFILE}; Node.js ${process.version}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);

// Warm up first: V8 compiles WebAssembly in tiers (a baseline compiler at once, the optimising
// one in the background for hot functions), and JavaScript likewise. Without this, whichever
// figure comes first pays for code that is not yet optimised.
for (let round = 0; round < 3; round++) {
	for (let f = 0; f < files.length; f++) {
		const robots = Robots.parse(round % 2 === 0 ? texts[f] : bytes[f], { profile: PROFILE });
		const crawler = robots.crawler(AGENT);
		crawler.allowedMany(urlsOf[f]);
		for (const url of urlsOf[f]) crawler.isAllowed(url);
		crawler.free();
		robots.free();
		robotsParser(ROBOTS_URL, texts[f]).isAllowed(urlsOf[f][0], AGENT);
	}
}

// Parse + resolve one crawler, per file.
const ours = show('robotrules: parse (string) + crawler(agent), per file', timed(() => {
	for (const text of texts) {
		const robots = Robots.parse(text, { profile: PROFILE });
		robots.crawler(AGENT).free();
		robots.free();
	}
}), files.length, 'µs');
const oursBytes = show('robotrules: parse (Uint8Array) + crawler(agent), per file', timed(() => {
	for (const body of bytes) {
		const robots = Robots.parse(body, { profile: PROFILE });
		robots.crawler(AGENT).free();
		robots.free();
	}
}), files.length, 'µs');
const theirsParse = show('robots-parser: robotsParser(url, contents), per file', timed(() => {
	for (const text of texts) robotsParser(ROBOTS_URL, text);
}), files.length, 'µs');
ratio('parse + resolve: robots-parser ÷ robotrules (string)', theirsParse, ours);
ratio('parse + resolve: robots-parser ÷ robotrules (bytes)', theirsParse, oursBytes);

// One isAllowed call from JavaScript, the crawler resolved (robots-parser has no crawler:
// its instance is the parsed file, asked with the agent).
const crawlers = texts.map((text) => Robots.parse(text, { profile: PROFILE }).crawler(AGENT));
const parsers = texts.map((text) => robotsParser(ROBOTS_URL, text));
const dropIns = texts.map((text) => dropIn(ROBOTS_URL, text, { profile: PROFILE }));
let sink = 0;
const single = show('robotrules: crawler.isAllowed(url), per call', timed(() => {
	for (let f = 0; f < crawlers.length; f++) {
		const crawler = crawlers[f];
		for (const url of urlsOf[f]) sink += crawler.isAllowed(url) ? 1 : 0;
	}
}), urlCount, 'ns');
const theirsSingle = show('robots-parser: robots.isAllowed(url, agent), per call', timed(() => {
	for (let f = 0; f < parsers.length; f++) {
		const robots = parsers[f];
		for (const url of urlsOf[f]) sink += robots.isAllowed(url, AGENT) ? 1 : 0;
	}
}), urlCount, 'ns');
ratio('isAllowed: robots-parser ÷ robotrules', theirsSingle, single);
const dropInSingle = show('robotrules/robots-parser: robots.isAllowed(url, agent), per call', timed(() => {
	for (let f = 0; f < dropIns.length; f++) {
		const robots = dropIns[f];
		for (const url of urlsOf[f]) sink += robots.isAllowed(url, AGENT) ? 1 : 0;
	}
}), urlCount, 'ns');
ratio('isAllowed: robots-parser ÷ the drop-in', theirsSingle, dropInSingle);

// allowedMany, one call per file, and big batches.
show('robotrules: crawler.allowedMany(urls), one call per file, per URL', timed(() => {
	for (let f = 0; f < crawlers.length; f++) sink += crawlers[f].allowedMany(urlsOf[f]).length;
}), urlCount, 'ns');
const typical = texts[files.findIndex((p) => p.endsWith('ropensci-robotstxt__rbloggers.txt'))] ?? texts[0];
const typicalCrawler = Robots.parse(typical, { profile: PROFILE }).crawler(AGENT);
const batch = [];
while (batch.length < 12_000) batch.push(...crawlUrls(typical));
batch.length = 12_000;
show('robotrules: crawler.allowedMany(12,000 URLs), typical file, per URL', timed(() => {
	for (let i = 0; i < 10; i++) sink += typicalCrawler.allowedMany(batch).length;
}), 10 * batch.length, 'ns');
show('robotrules: crawler.isAllowed(url), the same 12,000 URLs, per call', timed(() => {
	for (let i = 0; i < 10; i++) for (const url of batch) sink += typicalCrawler.isAllowed(url) ? 1 : 0;
}), 10 * batch.length, 'ns');
console.log(`(checksum ${sink})`);
