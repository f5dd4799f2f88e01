import { seed002EndToEnd } from './seed-002-pipeline.ts';

seed002EndToEnd('embedded');
