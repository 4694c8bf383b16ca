// What `require('robots-parser')` gives Crawlee here: the drop-in, from the robotrules package
// installed beside this folder (../node_modules/robotrules).
module.exports = require('robotrules/robots-parser');
