import type { Stream } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { McpLogger } from '../common/logger';

const KEPT_LINES = 20;
const MAX_LINE_CHARS = 500;

/** Forwards a server's stderr to the log line by line and remembers the last lines for failure reasons. */
export class StderrTail {
  private readonly lines: string[] = [];
  private partial = '';

  constructor(
    private readonly server: string,
    private readonly logger: McpLogger,
  ) {}

  attach(stream: Stream): void {
    const decoder = new StringDecoder('utf8');
    stream.on('data', (chunk: Buffer | string) => this.push(typeof chunk === 'string' ? chunk : decoder.write(chunk)));
    stream.on('end', () => this.flush());
  }

  /** Includes an unterminated last line: a crashing server often dies mid-line. */
  last(count: number): readonly string[] {
    const partial = this.partial.trim() === '' ? [] : [this.partial.slice(0, MAX_LINE_CHARS)];
    return [...this.lines, ...partial].slice(-count);
  }

  private push(chunk: string): void {
    const parts = (this.partial + chunk).split(/\r?\n/);
    this.partial = parts.pop() ?? '';
    parts.forEach((line) => this.add(line));
  }

  private flush(): void {
    if (this.partial !== '') this.add(this.partial);
    this.partial = '';
  }

  private add(line: string): void {
    if (line.trim() === '') return;
    const bounded = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
    this.logger.info(`[${this.server}] ${bounded}`);
    this.lines.push(bounded);
    if (this.lines.length > KEPT_LINES) this.lines.shift();
  }
}
