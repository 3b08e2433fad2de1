#!/usr/bin/env node
// The `calendar` command: runs the TypeScript entry through tsx, as `npm start` does.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
