export { EDITOR_SOURCE, editorToolDefinitions, editorToolKind, type EditorToolKind } from './definitions';
export { EDITOR_TOOL_NAMES, isEditorToolName, parseEditorInput, type EditorInput, type EditorToolName } from './schemas';
export { CommandOutput, MAX_COMMAND_OUTPUT, cleanTerminalOutput, commandResultText, lastOutputLine, type CommandEnding, type CommandReport } from './commandOutput';
export { ALWAYS_EXCLUDED, DEFAULT_MAX_RESULTS, DEFAULT_SCOPE, anchorGlob, enabledGlobs, fallbackGlob, findFilesArgs, folderGlobs, includeMatcher, includeRules, joinGlobs, queryRegExp, REGEX_FIX, searchGlobs, searchTextArgs, splitGlobs, type SearchGlobs, type SearchScope } from './ripgrepArgs';
export { COUNT_LIMIT, MatchCollector, byPath, formatFileList, formatSearch, leftOutText, previewLine, ripgrepFailure, stripDotSlash, type CollectedMatches, type FileListAnswer, type FileMatches, type MatchLine, type SearchAnswer } from './searchOutput';
