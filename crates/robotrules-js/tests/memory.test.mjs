// WebAssembly memory is freed deterministically by free(), and by the garbage collector
// (wasm-bindgen's FinalizationRegistry) when free() is never called: parsing 100,000 files in a
// loop leaves the WebAssembly memory where it was.
import test from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { Robots, memoryBytes } from 'robotrules';

const FILES = 100_000;

/** A different ~1 KB file each time. */
function body(i) {
	let text = `User-agent: bot${i % 97}\nDisallow: /private/${i}/\nAllow: /private/${i}/press\nCrawl-delay: ${i % 7}\n\n`;
	text += 'User-agent: *\n';
	for (let j = 0; j < 30; j++) text += `Disallow: /${(i + j) % 1000}/*.pdf$\n`;
	return text;
}

function use(robots, i) {
	const crawler = robots.crawler(`bot${i % 97}`);
	assert.equal(crawler.isAllowed(`/private/${i}/x`), false);
	return crawler;
}

test(`parsing ${FILES} files with free() keeps the WebAssembly memory flat`, () => {
	for (let i = 0; i < 1000; i++) {
		const robots = Robots.parse(body(i));
		use(robots, i).free();
		robots.free();
	}
	const before = memoryBytes();
	for (let i = 0; i < FILES; i++) {
		const robots = Robots.parse(body(i));
		use(robots, i).free();
		robots.free();
	}
	assert.equal(memoryBytes(), before);
});

test(`parsing ${FILES} files without free() stays flat: the garbage collector frees them`, async () => {
	setFlagsFromString('--expose-gc');
	const gc = runInNewContext('gc');
	const collect = async () => {
		gc();
		// FinalizationRegistry callbacks run in a later task.
		await new Promise((resolve) => setTimeout(resolve, 0));
		gc();
		await new Promise((resolve) => setTimeout(resolve, 0));
	};
	const batch = 5000;
	let settled = 0;
	for (let i = 0; i < FILES; i++) {
		use(Robots.parse(body(i)), i);
		if ((i + 1) % batch === 0) {
			await collect();
			// After a few batches the memory has grown to what one batch needs, and stays.
			if (i + 1 === 4 * batch) settled = memoryBytes();
		}
	}
	await collect();
	assert.ok(settled > 0);
	assert.equal(memoryBytes(), settled, `grew from ${settled} to ${memoryBytes()} bytes`);
});
