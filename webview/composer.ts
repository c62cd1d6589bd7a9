import type { ChatSnapshot } from '../src/protocol';
import { fileQuery, suggest, type CompletionSources, type Suggestion } from './completion';
import { button, formatCount, h, icon } from './dom';
import { renderAttachmentChip } from './render/attachmentChip';
import { usageTitle } from './render/turnSummary';
import { post } from './vscodeApi';

/**
 * The input box: Enter sends, Shift+Enter breaks the line, Up in an empty box recalls the last
 * message. While a turn runs the send button becomes Stop. Slash commands and `#` mentions are
 * sent as typed; the host parses and resolves them. Attachments waiting for the message show as
 * chips above the input.
 */
export class Composer {
  readonly el = h('div', { class: 'composer' });
  private readonly input = h('textarea', {
    class: 'composer-input',
    attrs: { rows: '1', placeholder: 'Ask Quiver, or type / for commands', 'aria-label': 'Message', spellcheck: 'true' },
  });
  private readonly chips = h('div', { class: 'attachments', attrs: { 'aria-label': 'Attachments' } });
  private readonly popup = h('ul', { class: 'completion', attrs: { role: 'listbox', 'aria-label': 'Suggestions' } });
  private readonly model = h('span', { class: 'model' });
  private readonly usage = h('span', { class: 'live-usage' });
  private readonly send = button({ icon: 'send', title: 'Send (Enter)', class: 'send', onClick: () => this.submit() });
  private readonly stop = button({ icon: 'debug-stop', title: 'Stop', class: 'stop', onClick: () => post({ type: 'stop' }) });
  private suggestions: Suggestion[] = [];
  private selected = 0;
  private state: ChatSnapshot | null = null;
  private lastSent = '';
  private files: CompletionSources['files'] = null;
  private askedFiles: string | null = null;
  private renderedChips = '';

  constructor(
    draft: string,
    private readonly onDraft: (draft: string) => void,
    /** A message went to the host (the transcript then scrolls to it). */
    private readonly onSent: () => void,
  ) {
    this.input.value = draft;
    this.popup.hidden = true;
    this.el.append(
      this.popup,
      h('div', { class: 'composer-box' }, this.chips, this.input, h('div', { class: 'composer-bar' }, h('span', { class: 'model-chip', title: 'Model in use (quiver.model)' }, icon('sparkle'), this.model), this.usage, h('span', { class: 'spacer' }), this.send, this.stop)),
    );
    this.input.addEventListener('keydown', (e) => this.onKey(e));
    this.input.addEventListener('input', () => {
      this.onDraft(this.input.value);
      this.refreshSuggestions();
    });
    this.input.addEventListener('click', () => this.refreshSuggestions());
    this.input.addEventListener('blur', () => window.setTimeout(() => this.closePopup(), 150));
  }

  focus(): void {
    this.input.focus();
  }

  /** The user is in the middle of writing a message: the box has the focus and holds text. */
  isTyping(): boolean {
    return document.activeElement === this.input && this.input.value.trim() !== '';
  }

  /** Replaces the draft (Edit of a failed message) and puts the cursor at its end. */
  setText(text: string): void {
    this.input.value = text;
    this.onDraft(text);
    this.input.focus();
    this.input.setSelectionRange(text.length, text.length);
  }

  render(state: ChatSnapshot): void {
    this.state = state;
    this.model.textContent = state.model;
    this.send.hidden = state.busy;
    this.stop.hidden = !state.busy;
    // Usage arrives when a response finishes; before that a running turn has none to show.
    const usage = state.liveUsage !== null && state.liveUsage.input + state.liveUsage.output > 0 ? state.liveUsage : null;
    this.usage.textContent = usage ? `${formatCount(usage.input)} in · ${formatCount(usage.output)} out` : '';
    this.usage.title = usage ? usageTitle(usage) : '';
    this.renderChips(state);
  }

  /** The host's answer to a `#file:` query; shown when it answers the query still being typed. */
  showFiles(query: string, paths: readonly string[]): void {
    this.files = { query, paths };
    if (document.activeElement === this.input) this.refreshSuggestions();
  }

  private renderChips(state: ChatSnapshot): void {
    const key = JSON.stringify(state.attachments);
    if (key === this.renderedChips) return;
    this.renderedChips = key;
    this.chips.replaceChildren(...state.attachments.map((chip) => renderAttachmentChip(chip, (id) => post({ type: 'openAttachment', id }), (id) => post({ type: 'removeAttachment', id }))));
  }

  private submit(): void {
    const text = this.input.value;
    if (text.trim() === '' || this.state?.busy === true) return;
    post({ type: 'sendMessage', text });
    this.onSent();
    this.lastSent = text;
    this.input.value = '';
    this.onDraft('');
    this.closePopup();
  }

  private onKey(e: KeyboardEvent): void {
    if (e.isComposing) return;
    if (!this.popup.hidden && this.suggestions.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const n = this.suggestions.length;
        this.selected = (this.selected + (e.key === 'ArrowDown' ? 1 : n - 1)) % n;
        this.renderPopup();
        return;
      }
      if (e.key === 'Tab' || (e.key === 'Enter' && !e.shiftKey)) {
        e.preventDefault();
        this.accept(this.selected);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        this.closePopup();
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      this.submit();
    } else if (e.key === 'ArrowUp' && this.input.value === '' && this.lastSent !== '') {
      e.preventDefault();
      this.input.value = this.lastSent;
      this.onDraft(this.lastSent);
    } else if (e.key === 'Escape' && this.state?.busy === true) {
      post({ type: 'stop' });
    }
  }

  private refreshSuggestions(): void {
    const caret = this.input.selectionStart ?? this.input.value.length;
    const query = fileQuery(this.input.value, caret);
    if (query !== null && query !== this.askedFiles) post({ type: 'completeFiles', query });
    this.askedFiles = query;
    this.suggestions = suggest(this.input.value, caret, { tools: this.state?.toolCompletions ?? [], prompts: this.state?.promptCompletions ?? [], resources: this.state?.resourceCompletions ?? [], files: this.files });
    // An exact, complete command needs no popup.
    const only = this.suggestions[0];
    if (this.suggestions.length === 1 && only && only.replacement === this.input.value && only.caret === caret) this.suggestions = [];
    this.selected = 0;
    this.renderPopup();
  }

  private accept(index: number): void {
    const s = this.suggestions[index];
    if (!s) return;
    this.input.value = s.replacement;
    this.input.setSelectionRange(s.caret, s.caret);
    this.onDraft(this.input.value);
    this.input.focus();
    this.refreshSuggestions();
  }

  private closePopup(): void {
    this.suggestions = [];
    this.popup.hidden = true;
    this.input.removeAttribute('aria-activedescendant');
  }

  private renderPopup(): void {
    this.popup.hidden = this.suggestions.length === 0;
    this.popup.replaceChildren(
      ...this.suggestions.map((s, i) => {
        const li = h('li', { class: `completion-item${i === this.selected ? ' selected' : ''}`, attrs: { role: 'option', id: `completion-${i}`, 'aria-selected': String(i === this.selected) } }, h('span', { class: 'completion-label' }, s.label), h('span', { class: 'completion-detail' }, s.detail));
        // mousedown, not click: the textarea's blur would close the popup before a click lands.
        li.addEventListener('mousedown', (e) => {
          e.preventDefault();
          this.accept(i);
        });
        return li;
      }),
    );
    if (this.suggestions.length > 0) {
      this.input.setAttribute('aria-activedescendant', `completion-${this.selected}`);
      this.popup.children[this.selected]?.scrollIntoView({ block: 'nearest' });
    }
  }
}
