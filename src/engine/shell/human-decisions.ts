/** The human's answers to a stopped loop, `ralf task approve` and `ralf task defer`: one bundle (dist/lib/human-decisions.js) that `task verify` never parses. */
export { approveTask } from './approve-task.js';
export { deferTask } from './defer-task.js';
