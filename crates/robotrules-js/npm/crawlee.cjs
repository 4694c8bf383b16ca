'use strict';
// `require('robotrules/crawlee')`: a Crawlee crawler that fails closed on robots.txt.
module.exports = require('./dist/crawlee.cjs')(require('./node.cjs'));
