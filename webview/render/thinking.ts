import type { ThinkingItem } from '../../src/protocol';
import { append, h, icon } from '../dom';
import { renderMarkdown } from './markdown';

/** How a thinking section stands in the transcript, besides its text. */
export interface ThinkingView {
  /** The latest thinking of the turn still running: open by default, as a short preview of its newest lines. */
  readonly live: boolean;
  /** Still being written: nothing has come after it yet. */
  readonly streaming: boolean;
}

export const REDACTED_NOTE = 'Some of the model’s reasoning was redacted: it is kept for the model but cannot be shown.';

/** What each section shows now, so an update redraws only what changed. */
const drawn = new WeakMap<HTMLDetailsElement, { readonly item: ThinkingItem; readonly view: ThinkingView }>();

/**
 * The model's thinking as a quiet, collapsible section: open while its turn runs, collapsed once
 * the turn has ended, unless the user chose (`userOpen`, else null). The text goes through the
 * same sanitizing markdown path as the model's replies.
 *
 * `into` is the section drawn for this item before: it is updated in place, so streaming thinking
 * does not take keyboard focus off its summary or read the section out again at every frame.
 */
export function renderThinking(item: ThinkingItem, view: ThinkingView, userOpen: boolean | null, into: HTMLDetailsElement | null = null): HTMLDetailsElement {
  const details = into ?? createSection();
  const before = drawn.get(details);
  details.className = `thinking${view.live ? ' live' : ''}${view.streaming ? ' streaming' : ''}`;
  details.open = userOpen ?? view.live;
  const summary = details.querySelector(':scope > summary');
  if (summary && before?.view.streaming !== view.streaming) drawSummary(summary, view.streaming);
  const body = details.querySelector(':scope > .thinking-body');
  if (body && (before?.item.text !== item.text || before.item.redacted !== item.redacted)) body.replaceChildren(content(item));
  drawn.set(details, { item, view });
  return details;
}

function createSection(): HTMLDetailsElement {
  // The body changes at every streamed frame; inside the chat's live log it would be read out
  // each time. The summary still announces that the model is thinking.
  return h('details', {}, h('summary', {}), h('div', { class: 'thinking-body', attrs: { 'aria-live': 'off' } }));
}

function drawSummary(summary: Element, streaming: boolean): void {
  const label = streaming ? 'Thinking…' : 'Thinking';
  // The visible word leads the accessible name; the rest says what the section holds.
  summary.setAttribute('aria-label', `${label} (the model’s reasoning${streaming ? ', in progress' : ''})`);
  summary.setAttribute('title', streaming ? 'The model is thinking' : 'The model’s thinking: click to show or hide');
  summary.replaceChildren();
  append(
    summary,
    icon('chevron-right', 'chevron'),
    streaming ? icon('loading', 'codicon-modifier-spin thinking-icon') : icon('lightbulb', 'thinking-icon'),
    h('span', { class: 'thinking-label' }, label),
  );
}

/** One wrapper, so the live preview can pin its newest lines to the bottom (see chat.css). */
function content(item: ThinkingItem): HTMLElement {
  const wrapper = h('div', { class: 'thinking-content' });
  if (item.text !== '') wrapper.append(renderMarkdown(item.text));
  if (item.redacted) wrapper.append(h('p', { class: 'thinking-redacted' }, icon('lock'), h('span', {}, REDACTED_NOTE)));
  return wrapper;
}

/** Marks a live preview whose older lines are cut off, which fade at the top (see chat.css). Reads layout: call once per frame, after the transcript is in the page. */
export function markClippedPreview(section: HTMLElement): void {
  const body = section.classList.contains('live') ? section.querySelector<HTMLElement>(':scope > .thinking-body') : null;
  body?.classList.toggle('clipped', body.scrollHeight > body.clientHeight + 1);
}
