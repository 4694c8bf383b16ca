// Browsers, Deno, Bun, Workers: call `await init()` once before anything else (it fetches
// robotrules_js_bg.wasm next to this module), or `initSync({ module })` with the bytes or a
// compiled `WebAssembly.Module` (Workers import the .wasm file as a module).
import initWasm, { initSync as initWasmSync } from './dist/web/robotrules_js.js';
import * as raw from './dist/web/robotrules_js.js';
import bind from './dist/api.mjs';

const api = bind(raw);

/** Loads the WebAssembly: `input` is a URL, a `Response`, bytes or a `WebAssembly.Module` (default: the file beside this module). */
export async function init(input) {
	await initWasm(input === undefined ? undefined : { module_or_path: input });
}

/** Loads the WebAssembly synchronously from `{ module }`: bytes or a `WebAssembly.Module`. */
export function initSync(options) {
	initWasmSync(options);
}

export const { Robots, Crawler, InvalidAgent, InvalidUrl, lint, crawlerToken, governs, statusAccess, memoryBytes, PROFILES } = api;
export default { ...api, init, initSync };
