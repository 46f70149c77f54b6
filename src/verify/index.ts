export { runChecks, outputBudget, DEFAULT_HEAD_BYTES, DEFAULT_TAIL_BYTES } from './run-checks.js';
export type { RawCheckResult, RunChecksOptions } from './run-checks.js';
export { runCommand, signalFromShellStatus } from './run-command.js';
export type { RunCommandOptions, CommandOutcome } from './run-command.js';
export { runFileCheck, isFileCheck, isInside, fileContains, countLines } from './file-checks.js';
export type { FileCheck, FileCheckOutcome } from './file-checks.js';
export { describeCheck, formatCommandForDisplay } from './describe.js';
export { HeadTailBuffer, omissionMarker } from './output-buffer.js';
