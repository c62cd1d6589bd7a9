import { applyEdits, createScanner, findNodeAtLocation, parseTree, printParseErrorCode, SyntaxKind, type Edit, type Node, type ParseError } from 'jsonc-parser';

/**
 * Edits of a hand-written JSON-with-comments file (settings.json) that change one property and
 * keep every other byte: comments, spacing, indentation, order. jsonc-parser's `modify` cannot be
 * used for this: its removal swallows the comment that ends the previous property's line, and its
 * formatting rewrites the neighbouring lines.
 */

export type JsonPath = readonly string[];

export interface JsoncStyle {
  /** New values at this path length or deeper go on one line; shallower new objects get a line per property. */
  readonly inlineFrom: number;
}

/** The file is not JSON with comments, so where an edit belongs cannot be known. */
export class JsoncSyntaxError extends Error {}

interface Layout extends JsoncStyle {
  readonly eol: string;
  /** One level of indentation, as the file already uses it. */
  readonly unit: string;
}

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false } as const;
const COMMENTS_AND_SPACE: ReadonlySet<SyntaxKind> = new Set([SyntaxKind.Trivia, SyntaxKind.LineBreakTrivia, SyntaxKind.LineCommentTrivia, SyntaxKind.BlockCommentTrivia]);

/** `text` with the value at `path` set, its missing parents created (an empty text becomes an object). */
export function setJsoncValue(text: string, path: JsonPath, value: unknown, style: JsoncStyle): string {
  const source = text.trim() === '' ? '{}\n' : text;
  const layout = layoutOf(source, style);
  let parent = rootObject(source);
  for (let depth = 0; depth < path.length; depth++) {
    const child = findNodeAtLocation(parent, [path[depth]!]);
    if (!child) return applyEdits(source, insertProperty(source, parent, path.slice(0, depth + 1), nest(path.slice(depth + 1), value), layout));
    if (depth === path.length - 1 || child.type !== 'object') {
      const replacement = render(nest(path.slice(depth + 1), value), depth + 1, indentAt(source, child.parent?.offset ?? child.offset), layout);
      return applyEdits(source, [{ offset: child.offset, length: child.length, content: replacement }]);
    }
    parent = child;
  }
  return source;
}

/** `text` without the property at `path`; a property on a line of its own takes the line with it. */
export function removeJsoncProperty(text: string, path: JsonPath): string {
  if (text.trim() === '') return text;
  const property = findNodeAtLocation(rootObject(text), [...path])?.parent;
  const siblings = property?.parent?.children;
  if (!property || property.type !== 'property' || !siblings) return text;
  const start = property.offset;
  const end = property.offset + property.length;
  const commaAfter = commaFollowing(text, end);
  const previous = siblings[siblings.indexOf(property) - 1];
  // The last property's separator is the comma after the one before it.
  const commaBefore = commaAfter === undefined && previous ? commaFollowing(text, previous.offset + previous.length) : undefined;
  const through = commaAfter === undefined ? end : commaAfter + 1;
  const lineFrom = lineStart(text, start);
  const lineTo = endOfLineAfter(text, through);
  const edits: Edit[] = [];
  if (text.slice(lineFrom, start).trim() === '' && lineTo !== undefined) {
    if (commaBefore !== undefined) edits.push({ offset: commaBefore, length: 1, content: '' });
    edits.push({ offset: lineFrom, length: lineTo + eolLength(text, lineTo) - lineFrom, content: '' });
  } else if (commaAfter !== undefined) {
    edits.push({ offset: start, length: skipSpaces(text, through) - start, content: '' });
  } else {
    const from = commaBefore ?? start;
    edits.push({ offset: from, length: end - from, content: '' });
  }
  return applyEdits(text, edits);
}

/** Where the value at `path` is in `text`, if it is there (read leniently: the file may be mid-edit). */
export function jsoncValueRange(text: string, path: JsonPath): { readonly offset: number; readonly length: number } | undefined {
  const root = parseTree(text, [], PARSE_OPTIONS);
  const node = root && findNodeAtLocation(root, [...path]);
  return node ? { offset: node.offset, length: node.length } : undefined;
}

function rootObject(text: string): Node {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, PARSE_OPTIONS);
  if (errors.length > 0) {
    throw new JsoncSyntaxError(`it is not valid JSON (${errors.map((e) => `${printParseErrorCode(e.error)} at offset ${e.offset}`).join(', ')})`);
  }
  if (root?.type !== 'object') throw new JsoncSyntaxError('it does not hold a JSON object');
  return root;
}

function insertProperty(text: string, object: Node, path: JsonPath, value: unknown, layout: Layout): Edit[] {
  const key = path[path.length - 1]!;
  const outerIndent = indentAt(text, object.parent?.offset ?? object.offset);
  const last = object.children?.[object.children.length - 1];
  if (!last) {
    const inside = text.slice(object.offset + 1, object.offset + object.length - 1);
    if (inside.trim() === '') return [{ offset: object.offset, length: object.length, content: render({ [key]: value }, path.length - 1, outerIndent, layout) }];
    // Only comments inside: the property goes on a line of its own before them.
    const indent = outerIndent + layout.unit;
    return [{ offset: object.offset + 1, length: 0, content: `${layout.eol}${indent}${property(key, value, path.length, indent, layout)}` }];
  }
  const lastEnd = last.offset + last.length;
  const trailingComma = commaFollowing(text, lastEnd);
  const separator: Edit[] = trailingComma === undefined ? [{ offset: lastEnd, length: 0, content: ',' }] : [];
  const after = trailingComma === undefined ? lastEnd : trailingComma + 1;
  const lineEnd = endOfLineAfter(text, after);
  if (lineEnd !== undefined && text.slice(object.offset, last.offset).includes('\n')) {
    const indent = indentAt(text, last.offset);
    return [...separator, { offset: lineEnd, length: 0, content: `${layout.eol}${indent}${property(key, value, path.length, indent, layout)}` }];
  }
  return [...separator, { offset: after, length: 0, content: ` ${property(key, value, path.length, outerIndent, layout)}` }];
}

function property(key: string, value: unknown, depth: number, indent: string, layout: Layout): string {
  return `${JSON.stringify(key)}: ${render(value, depth, indent, layout)}`;
}

/** `value` as JSON for a place `depth` keys deep whose line is indented by `indent`. */
function render(value: unknown, depth: number, indent: string, layout: Layout): string {
  if (!isObject(value) || depth >= layout.inlineFrom) return inline(value);
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  const inner = indent + layout.unit;
  const lines = entries.map(([k, v]) => `${inner}${property(k, v, depth + 1, inner, layout)}`);
  return `{${layout.eol}${lines.join(`,${layout.eol}`)}${layout.eol}${indent}}`;
}

function inline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(', ')}]`;
  if (!isObject(value)) return JSON.stringify(value);
  const entries = Object.entries(value);
  return entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${inline(v)}`).join(', ')} }`;
}

function nest(path: JsonPath, value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function layoutOf(text: string, style: JsoncStyle): Layout {
  return { ...style, eol: text.includes('\r\n') ? '\r\n' : '\n', unit: /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ' };
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function indentAt(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, offset)))?.[0] ?? '';
}

function eolLength(text: string, offset: number): number {
  if (text.startsWith('\r\n', offset)) return 2;
  return offset < text.length ? 1 : 0;
}

function skipSpaces(text: string, offset: number): number {
  let i = offset;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i;
}

/** The offset of a comma that comes next after `offset`, past spaces and comments. */
function commaFollowing(text: string, offset: number): number | undefined {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    if (kind === SyntaxKind.CommaToken) return scanner.getTokenOffset();
    if (!COMMENTS_AND_SPACE.has(kind)) return undefined;
  }
  return undefined;
}

/** Where the line ends (the line break's offset), when only spaces and comments follow `offset` on it. */
function endOfLineAfter(text: string, offset: number): number | undefined {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  for (let kind = scanner.scan(); ; kind = scanner.scan()) {
    if (kind === SyntaxKind.EOF) return text.length;
    if (kind === SyntaxKind.LineBreakTrivia) return scanner.getTokenOffset();
    const comment = text.slice(scanner.getTokenOffset(), scanner.getTokenOffset() + scanner.getTokenLength());
    const sameLine = kind === SyntaxKind.Trivia || kind === SyntaxKind.LineCommentTrivia || (kind === SyntaxKind.BlockCommentTrivia && !/[\r\n]/.test(comment));
    if (!sameLine) return undefined;
  }
}
