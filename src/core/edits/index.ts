export { textAfter, textBefore, type ChangeSummary, type FileChange, type FileChangeKind } from './fileChange';
export { lineCounts, summarizeChange, unifiedDiff } from './lineCounts';
export { climbsOut, isInGitFolder, isInside, protectedChangeReason } from './protectedFiles';
export { applyStringEdits, minimalReplacement, nearestLines, type StringEdit, type StringEditsOutcome } from './stringEdits';
export { applyOffsetEdits, type OffsetEdit, type OffsetEditsOutcome } from './textEdits';
export { filesTouched, inverseChange, turnCheckpoint, undoChanges, undoneCalls, undoneText, type TurnCheckpoint } from './checkpoints';
