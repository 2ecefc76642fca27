#!/usr/bin/env node
import {runCli} from './run-cli.js';

// `ps` and `top` show perscope, not node.
process.title = 'perscope';

/** How long the process may linger once the run has returned and nothing is left to do. */
const lingerAfterMainMs = 2000;

process.exitCode = await runCli(process.argv.slice(2), {streams: process, env: process.env});
// Everything is done and written. Should anything still hold the process open (a system call that does not
// return, a pipe a grandchild of `-- COMMAND` keeps open), the exit is not left to it: this timer does not keep
// the process alive itself, so it fires only when something else does.
setTimeout(() => process.exit(), lingerAfterMainMs).unref();
