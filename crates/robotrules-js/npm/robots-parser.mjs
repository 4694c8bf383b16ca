// `import robotsParser from 'robotrules/robots-parser'` on Node.js.
import { createRequire } from 'node:module';

export default createRequire(import.meta.url)('./robots-parser.cjs');
