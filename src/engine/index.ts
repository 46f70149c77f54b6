// The loop engine's public API (see docs/ENGINE.md). Import from the files directly on hot
// paths; this index is for callers that want everything.
export { verifyTask, verifyPlan, exitCodeFor, currentDecision, type VerifyOptions, type VerifyTaskOptions, type VerifyOutcome } from './verify-task.js';
export { escalateTask, type EscalateOptions } from './escalate-task.js';
export { resetTask, type ResetOptions, type ResetResult } from './reset-task.js';
export { startTask, type StartOptions } from './start-task.js';
export { recordLoopEvent, type RecordEventOptions, type RunEvent } from './record-event.js';
export type { ActionOutcome } from './action-outcome.js';
export { reduce, type ReduceResult } from './reducer.js';
export type { Decision, LoopContext, LoopEvent, LoopLimits } from './events.js';
export { computeDelta, judgeDelta, type Delta, type DeltaHistory, type DeltaInput, type DeltaJudgement } from './delta.js';
export { buildHandoff, recommendedAction } from './handoff.js';
export { renderHandoffMarkdown } from './handoff-markdown.js';
export { renderVerify } from './render.js';
export { newLoopState, newPlanState, isFinal } from './loop-state.js';
export { taskKeys, taskKeyOf } from './task-identity.js';
export { migrateState } from './migrate-state.js';
export { findLoop } from './apply-event.js';
export { readPlanState, readPlanStateFile, writePlanState, readLog, appendLog, listPlanIds, stopFlagPresent, withPlanLock, type LogEntry } from './store.js';
export { planIdFromPath, projectRootForPlan, findProjectRoot, statePaths, STATE_DIR, STOP_FLAG } from './paths.js';
export { defaultDeps, type EngineDeps, type PlanningDeps, type GitDeps, type EffectiveConfigLike } from './deps.js';
export { summarizePlan, summarizeLoop, type PlanSummary, type LoopSummary } from './status.js';
