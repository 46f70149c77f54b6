// Runs in every test file: the temp dirs its tests made go when the file is done.
import { afterAll } from 'vitest';
import { removeTempDirs } from './helpers/cli.js';

afterAll(removeTempDirs);
