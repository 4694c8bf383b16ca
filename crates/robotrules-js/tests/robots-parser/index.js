// robots-parser's suite requires `../index` (its package's entry point): here, the drop-in.
module.exports = require('robotrules/robots-parser');
