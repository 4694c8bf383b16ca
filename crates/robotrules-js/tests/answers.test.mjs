// The answer tables in `conformance/answers/`, through the npm package: the same tables run
// through the Rust facade and the Python package, so that no surface reads them differently.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { statusAccess } from 'robotrules';

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
