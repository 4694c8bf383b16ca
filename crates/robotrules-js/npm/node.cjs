'use strict';
// Node.js, require(): the wasm-bindgen glue loads the WebAssembly synchronously.
const raw = require('./dist/node/robotrules_js.js');
const api = require('./dist/api.cjs')(raw);

/** A no-op on Node.js (the module is ready when loaded); browsers and edge runtimes need it. */
async function init() {}
/** A no-op on Node.js. */
function initSync() {}

module.exports = { ...api, init, initSync };
