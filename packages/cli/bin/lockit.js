#!/usr/bin/env node
import { main } from '../src/client/main.js';

process.exitCode = await main(process.argv.slice(2));
