export { type Attachment, type AttachmentChip, chipOf } from './attachment';
export { fileBlock, type Problem, problemsBlock, type ProblemSeverity, resourceBlock, selectionBlock } from './blocks';
export { decodeText } from './decode';
export { rankFiles } from './fuzzyFiles';
export { type Mention, parseMentions, withResourceNames } from './mentions';
