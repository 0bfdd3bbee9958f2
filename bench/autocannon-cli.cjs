// autocannon's command line, with SEARCH (RFC 9110 extension method, used by the API's SEARCH routes) added to the
// methods its request builder accepts.
require('autocannon/lib/httpMethods').push('SEARCH');
const autocannon = require('autocannon/autocannon.js');
autocannon.start(autocannon.parseArguments(process.argv.slice(2)));
