// `import { failClosed } from 'robotrules/crawlee'` on Node.js.
import { createRequire } from 'node:module';

const adapter = createRequire(import.meta.url)('./crawlee.cjs');

export const { failClosed, RobotsCache } = adapter;
export default adapter;
