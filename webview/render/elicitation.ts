import { answerProblems, initialAnswer, type ElicitationPromptView, type ElicitationReply, type FieldValue, type FormField } from '../../src/protocol';
import { button, h, icon } from '../dom';

type FormPrompt = Extract<ElicitationPromptView, { mode: 'form' }>;
type Answer = (promptId: string, reply: ElicitationReply) => void;

/**
 * A server's question, asked while one of the turn's calls runs: a form built from the fields it
 * requested (defaults filled in) or a link it wants opened. The server's message and labels are
 * text nodes, never markup. Accept sends only when every field is valid; each problem shows
 * under its field, saying which.
 */
export function renderElicitation(prompt: ElicitationPromptView, answer: Answer): HTMLElement {
  const box = h('div', { class: 'approval elicitation', attrs: { role: 'group', 'aria-label': `${prompt.server} asks` } });
  box.append(
    h('div', { class: 'approval-title' }, icon('question'), h('code', { class: 'tool-name' }, prompt.toolName), h('span', {}, ` asks (MCP server ${prompt.server})`)),
    h('p', { class: 'elicitation-message' }, prompt.message),
  );
  if (prompt.mode === 'url') {
    box.append(
      h('div', { class: 'elicitation-url' }, icon('link-external'), h('code', {}, prompt.url)),
      actions(prompt.promptId, answer, () => ({ action: 'accept', content: {} }), 'Open link'),
    );
    return box;
  }
  const form = new FormState(prompt);
  box.append(form.el, actions(prompt.promptId, answer, () => form.reply(), 'Accept'));
  return box;
}

function actions(promptId: string, answer: Answer, accept: () => ElicitationReply | undefined, acceptLabel: string): HTMLElement {
  const buttons: HTMLButtonElement[] = [];
  const send = (reply: () => ElicitationReply | undefined) => () => {
    const r = reply();
    if (r === undefined) return;
    for (const b of buttons) b.disabled = true;
    answer(promptId, r);
  };
  buttons.push(
    button({ label: acceptLabel, title: 'Send this answer to the server', class: 'primary', onClick: send(accept) }),
    button({ label: 'Decline', title: 'Tell the server you decline', class: 'secondary', onClick: send(() => ({ action: 'decline' })) }),
    button({ label: 'Cancel', title: 'Dismiss the question without answering', class: 'secondary', onClick: send(() => ({ action: 'cancel' })) }),
  );
  return h('div', { class: 'approval-actions' }, ...buttons);
}

/** The form's inputs and their values; `reply` validates with the same rules the host checks again. */
class FormState {
  readonly el = h('div', { class: 'elicitation-form' });
  private readonly values = new Map<string, FieldValue>();
  private readonly errors = new Map<string, HTMLElement>();

  constructor(private readonly prompt: FormPrompt) {
    for (const [key, value] of Object.entries(initialAnswer(prompt.fields))) this.values.set(key, value);
    for (const field of prompt.fields) this.el.append(this.row(field));
  }

  reply(): ElicitationReply | undefined {
    const content = Object.fromEntries(this.values);
    const problems = answerProblems(this.prompt.fields, content);
    for (const [key, el] of this.errors) el.textContent = problems.find((p) => p.key === key)?.message ?? '';
    if (problems.length > 0) {
      const first = problems[0]?.key;
      Array.from(this.el.querySelectorAll<HTMLElement>('[data-key]')).find((el) => el.dataset.key === first)?.focus();
      return undefined;
    }
    return { action: 'accept', content };
  }

  private row(field: FormField): HTMLElement {
    const id = `el-${this.prompt.promptId}-${field.key}`.replace(/[^\w-]/g, '_');
    const error = h('div', { class: 'elicitation-error', attrs: { id: `${id}-error`, 'aria-live': 'polite' } });
    this.errors.set(field.key, error);
    const control = this.control(field, id);
    control.dataset.key = field.key;
    control.setAttribute('aria-describedby', `${id}-error`);
    const label = h('label', { attrs: { for: id } }, field.label, field.required ? h('span', { class: 'required', attrs: { 'aria-hidden': 'true' } }, ' *') : null);
    return h('div', { class: `elicitation-field field-${field.kind}` }, label, field.description === undefined ? null : h('div', { class: 'muted elicitation-hint' }, field.description), control, error);
  }

  private control(field: FormField, id: string): HTMLElement {
    const set = (value: FieldValue | undefined): void => {
      if (value === undefined) this.values.delete(field.key);
      else this.values.set(field.key, value);
    };
    switch (field.kind) {
      case 'boolean': {
        const box = h('input', { attrs: { id, type: 'checkbox' } });
        box.checked = field.default ?? false;
        set(box.checked);
        box.addEventListener('change', () => set(box.checked));
        return box;
      }
      case 'choice': {
        const select = h('select', { attrs: { id } }, field.required && field.default === undefined ? h('option', { attrs: { value: '' } }, 'Choose…') : null, ...field.options.map((o) => h('option', { attrs: { value: o.value } }, o.label)));
        select.value = field.default ?? '';
        select.addEventListener('change', () => set(select.value === '' ? undefined : select.value));
        return select;
      }
      case 'choices': {
        const chosen = new Set(field.default ?? []);
        const group = h('div', { class: 'elicitation-choices', attrs: { id, role: 'group', tabindex: '-1' } });
        for (const option of field.options) {
          const box = h('input', { attrs: { type: 'checkbox', value: option.value } });
          box.checked = chosen.has(option.value);
          box.addEventListener('change', () => {
            if (box.checked) chosen.add(option.value);
            else chosen.delete(option.value);
            set([...chosen]);
          });
          group.append(h('label', {}, box, ` ${option.label}`));
        }
        return group;
      }
      case 'number': {
        const input = h('input', { attrs: { id, type: 'number', ...(field.integer ? { step: '1' } : {}), ...(field.minimum === undefined ? {} : { min: String(field.minimum) }), ...(field.maximum === undefined ? {} : { max: String(field.maximum) }) } });
        input.value = field.default === undefined ? '' : String(field.default);
        input.addEventListener('input', () => set(input.value.trim() === '' ? undefined : Number(input.value)));
        return input;
      }
      case 'text': {
        const type = field.format === 'email' ? 'email' : field.format === 'uri' ? 'url' : field.format === 'date' ? 'date' : 'text';
        const input = h('input', { attrs: { id, type, ...(field.maxLength === undefined ? {} : { maxlength: String(field.maxLength) }) } });
        input.value = field.default ?? '';
        input.addEventListener('input', () => set(input.value === '' ? undefined : input.value));
        return input;
      }
    }
  }
}
