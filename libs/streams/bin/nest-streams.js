#!/usr/bin/env node
// The `nest-streams` command of @nest-streams/streams: `nest-streams reset --help`.
'use strict';
const { runNestStreams } = require('../dist/cli/nest-streams.js');

runNestStreams(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
