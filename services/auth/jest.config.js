// The shared preset (which also compiles the ESM-only openid-client, oauth4webapi and jose to CommonJS).
module.exports = require('../../jest.preset')(__dirname);
