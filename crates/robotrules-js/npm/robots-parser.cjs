'use strict';
// `require('robotrules/robots-parser')`: npm's robots-parser, on the robotrules engine.
module.exports = require('./dist/robots-parser.cjs')(require('./node.cjs'));
