// `import robotsParser from 'robotrules/robots-parser'` in browsers and edge runtimes (after
// `await init()` from 'robotrules').
import robotsParserOf from './dist/robots-parser.mjs';
import * as api from './web.mjs';

export default robotsParserOf(api);
