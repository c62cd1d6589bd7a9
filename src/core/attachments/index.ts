export { chipOf, type Attachment, type AttachmentChip, type AttachmentKind, type LineRange } from './attachment';
export { fileBlock, type Problem, problemsBlock, type ProblemSeverity, resourceBlock, selectionBlock } from './blocks';
export { decodeText } from './decode';
export { rankFiles } from './fuzzyFiles';
export { fileMention, parseMentions, resourceMention, withResourceNames, type Mention } from './mentions';
