// Node.js, import: the same module instance as require() (one WebAssembly instance, one set of
// classes, so `instanceof` agrees between the two).
import { createRequire } from 'node:module';

const api = createRequire(import.meta.url)('./node.cjs');

export const { Robots, Crawler, InvalidAgent, InvalidUrl, lint, crawlerToken, governs, statusAccess, memoryBytes, PROFILES, init, initSync } = api;
export default api;
