/**
 * Element construction without HTML strings: every piece of text goes through text nodes, so
 * model and tool output can never become markup by accident.
 */
export type Child = Node | string | null | undefined | false;

export interface Props {
  readonly class?: string;
  readonly title?: string;
  readonly attrs?: Readonly<Record<string, string>>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.title) el.title = props.title;
  if (props.attrs) for (const [k, v] of Object.entries(props.attrs)) el.setAttribute(k, v);
  append(el, ...children);
  return el;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  }
}

export function icon(name: string, extra = ''): HTMLSpanElement {
  return h('span', { class: `codicon codicon-${name}${extra ? ` ${extra}` : ''}`, attrs: { 'aria-hidden': 'true' } });
}

export interface ButtonOptions {
  readonly icon?: string;
  readonly label?: string;
  /** Tooltip and accessible name; required for icon-only buttons. */
  readonly title: string;
  readonly class?: string;
  readonly onClick: (ev: MouseEvent) => void;
}

export function button(opts: ButtonOptions): HTMLButtonElement {
  const iconOnly = opts.label === undefined;
  const b = h(
    'button',
    // Only an icon-only button takes its accessible name from the title; a labelled one keeps its visible words as its name.
    { class: `${iconOnly ? 'icon-button' : 'text-button'}${opts.class ? ` ${opts.class}` : ''}`, title: opts.title, attrs: iconOnly ? { type: 'button', 'aria-label': opts.title } : { type: 'button' } },
    opts.icon ? icon(opts.icon) : null,
    opts.label ? h('span', {}, opts.label) : null,
  );
  b.addEventListener('click', opts.onClick);
  return b;
}

const numberFormat = new Intl.NumberFormat(undefined);
export function formatCount(n: number): string {
  if (n < 10_000) return numberFormat.format(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 100_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** Copies text and briefly swaps the button's icon to a check mark as feedback. */
export function copyWithFeedback(btn: HTMLButtonElement, text: string): void {
  const ico = btn.querySelector('.codicon');
  navigator.clipboard.writeText(text).then(
    () => {
      ico?.classList.replace('codicon-copy', 'codicon-check');
      window.setTimeout(() => ico?.classList.replace('codicon-check', 'codicon-copy'), 1200);
    },
    () => {
      btn.title = 'Copy failed';
    },
  );
}
