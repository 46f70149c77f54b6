// The loop engine's public API (see docs/ENGINE.md). Import from the files directly on hot
// paths; this index is for callers that want everything.
export { verifyTask, verifyPlan, exitCodeFor, currentDecision, type VerifyOptions, type VerifyTaskOptions, type VerifyOutcome } from './shell/verify-task.js';
export { escalateTask, type EscalateOptions } from './shell/escalate-task.js';
export { resetTask, type ResetOptions, type ResetResult } from './shell/reset-task.js';
export { startTask, type StartOptions } from './shell/start-task.js';
export { recordLoopEvent, type RecordEventOptions, type RunEvent } from './shell/record-event.js';
export type { ActionOutcome } from './shell/action-outcome.js';
export { reduce, type ReduceResult } from './core/reducer.js';
export type { Decision, LoopContext, LoopEvent, LoopLimits } from './core/events.js';
export { computeDelta, judgeDelta, type Delta, type DeltaHistory, type DeltaInput, type DeltaJudgement } from './core/delta.js';
export { buildHandoff, recommendedAction } from './core/handoff.js';
export { renderHandoffMarkdown } from './core/handoff-markdown.js';
export { renderVerify } from './cli/render.js';
export { newLoopState, newPlanState, isFinal } from './core/loop-state.js';
export { taskKeys, taskKeyOf } from './core/task-identity.js';
export { migrateState } from './core/migrate-state.js';
export { findLoop, loopOf } from './core/find-loop.js';
export { readPlanState, readPlanStateFile, writePlanState, readLog, appendLog, listPlanIds, stopFlagPresent, withPlanLock, type LogEntry } from './shell/store.js';
export { planIdFromPath, projectRootForPlan, findProjectRoot, statePaths, STATE_DIR, STOP_FLAG } from './shell/paths.js';
export { defaultDeps, type EngineDeps, type PlanningDeps, type GitDeps, type EffectiveConfigLike } from './shell/deps.js';
export { summarizePlan, summarizeLoop, type PlanSummary, type LoopSummary } from './core/status.js';
