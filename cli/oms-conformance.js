#!/usr/bin/env node
'use strict';
// The suite is TypeScript; tsx compiles it on the fly, also when installed under node_modules.
require('tsx/cjs');
const { main } = require('./main.ts');

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
