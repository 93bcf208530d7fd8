#!/usr/bin/env node
/**
 * `node dist/cli/main.js …`: the same as `ptax …`. The command itself is dist/cli/start.cjs
 * (cli/start.cts: the Node version check, the compile cache, the bundled command line;
 * CommonJS, which starts faster); this ES module only hands over to it, with syntax that
 * an old Node still parses, so that the version check runs there too.
 */
import { createRequire } from 'node:module';

createRequire(import.meta.url)('./start.cjs');
