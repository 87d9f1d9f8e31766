#!/usr/bin/env node
import { loadClient } from './load-client.js';

process.exitCode = await (await loadClient())(process.argv.slice(2));
