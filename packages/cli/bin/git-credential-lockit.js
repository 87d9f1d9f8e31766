#!/usr/bin/env node
// git runs `git-credential-lockit get|store|erase` for `git config credential.helper lockit`.
import { main } from '../src/client/main.js';

process.exitCode = await main(['credential', ...process.argv.slice(2)]);
