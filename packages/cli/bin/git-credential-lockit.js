#!/usr/bin/env node
// git runs `git-credential-lockit get|store|erase` for `git config credential.helper lockit`.
import { loadClient } from './load-client.js';

process.exitCode = await (await loadClient())(['credential', ...process.argv.slice(2)]);
