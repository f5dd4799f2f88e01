#!/usr/bin/env node
// The sources are TypeScript run through tsx, so a clone works without a compile step.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
