import assert from 'node:assert/strict';
import { answerProblems, formFields, initialAnswer, type FormField } from '../../../src/core/elicitation/elicitationForm';

/** The fields of a schema that must parse; fails the test with the error otherwise. */
function fieldsOf(schema: unknown): readonly FormField[] {
  const result = formFields(schema);
  if ('error' in result) assert.fail(`expected fields, got error: ${result.error}`);
  return result.fields;
}

function field(schema: Record<string, unknown>, required = false): FormField {
  const [only] = fieldsOf({ type: 'object', properties: { f: schema }, ...(required ? { required: ['f'] } : {}) });
  assert.ok(only);
  return only;
}

/** Compares ignoring whether an absent optional property is omitted or present as undefined. */
function assertShape(actual: unknown, expected: unknown): void {
  const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;
  assert.deepEqual(plain(actual), plain(expected));
}

function problems(f: FormField, value: unknown): readonly string[] {
  return answerProblems([f], value === undefined ? {} : { [f.key]: value as string }).map((p) => p.message);
}

describe('elicitation form: formFields', () => {
  it('turns each primitive type into its field, with title, description and required', () => {
    const fields = fieldsOf({
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Your name', description: 'As on the badge', minLength: 2, maxLength: 20, format: 'email' },
        age: { type: 'integer', minimum: 0, maximum: 150 },
        ratio: { type: 'number' },
        ok: { type: 'boolean', title: 'Agree' },
      },
      required: ['name', 'ok', 42],
    });
    assertShape(fields, [
      { key: 'name', label: 'Your name', description: 'As on the badge', required: true, kind: 'text', default: undefined, minLength: 2, maxLength: 20, format: 'email' },
      { key: 'age', label: 'age', description: undefined, required: false, kind: 'number', integer: true, default: undefined, minimum: 0, maximum: 150 },
      { key: 'ratio', label: 'ratio', description: undefined, required: false, kind: 'number', integer: false, default: undefined, minimum: undefined, maximum: undefined },
      { key: 'ok', label: 'Agree', description: undefined, required: true, kind: 'boolean', default: undefined },
    ]);
  });

  it('reads enum with enumNames, and oneOf of const/title, as a choice', () => {
    assertShape(field({ type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'], default: 'g' }), {
      key: 'f', label: 'f', description: undefined, required: false, kind: 'choice',
      options: [{ value: 'r', label: 'Red' }, { value: 'g', label: 'Green' }], default: 'g',
    });
    assertShape(field({ type: 'string', enum: ['a', 'b'] }), {
      key: 'f', label: 'f', description: undefined, required: false, kind: 'choice',
      options: [{ value: 'a', label: 'a' }, { value: 'b', label: 'b' }], default: undefined,
    });
    assertShape(field({ type: 'string', oneOf: [{ const: 'x', title: 'Ex' }, { const: 'y' }] }, true), {
      key: 'f', label: 'f', description: undefined, required: true, kind: 'choice',
      options: [{ value: 'x', label: 'Ex' }, { value: 'y', label: 'y' }], default: undefined,
    });
    assertShape(field({ type: 'string', anyOf: [{ const: 'p', title: 'Pee' }] }), {
      key: 'f', label: 'f', description: undefined, required: false, kind: 'choice', options: [{ value: 'p', label: 'Pee' }], default: undefined,
    });
  });

  it('reads an array of enum items as choices, with minItems/maxItems', () => {
    assertShape(field({ type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2, default: ['c', 'zz', 'a'] }), {
      key: 'f', label: 'f', description: undefined, required: false, kind: 'choices',
      options: [{ value: 'a', label: 'a' }, { value: 'b', label: 'b' }, { value: 'c', label: 'c' }],
      default: ['c', 'a'], minItems: 1, maxItems: 2,
    });
    const oneOfItems = field({ type: 'array', items: { anyOf: [{ const: 'k', title: 'Kay' }] } });
    assert.equal(oneOfItems.kind, 'choices');
    assert.deepEqual(oneOfItems.kind === 'choices' ? oneOfItems.options : [], [{ value: 'k', label: 'Kay' }]);
  });

  it('keeps a default only when it fits the field', () => {
    const defaults = (schema: Record<string, unknown>): unknown => field(schema).default;
    assert.equal(defaults({ type: 'string', default: 'hi' }), 'hi');
    assert.equal(defaults({ type: 'string', default: 5 }), undefined);
    assert.equal(defaults({ type: 'number', default: 2.5 }), 2.5);
    assert.equal(defaults({ type: 'number', default: '2.5' }), undefined);
    assert.equal(defaults({ type: 'integer', default: Number.NaN }), undefined);
    assert.equal(defaults({ type: 'boolean', default: false }), false);
    assert.equal(defaults({ type: 'boolean', default: 'true' }), undefined);
    assert.equal(defaults({ type: 'string', enum: ['a', 'b'], default: 'c' }), undefined);
    assert.equal(defaults({ type: 'string', enum: ['a', 'b'], default: 'b' }), 'b');
    assert.equal(defaults({ type: 'array', items: { enum: ['a'] }, default: 'a' }), undefined);
  });

  it('names the first property of a type it cannot show', () => {
    assert.deepEqual(formFields({ type: 'object', properties: { ok: { type: 'string' }, address: { type: 'object', properties: { street: { type: 'string' } } } } }), {
      error: 'the requested property "address" is not a string, number, integer, boolean or enum',
    });
    assert.deepEqual(formFields({ type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } }), {
      error: 'the requested property "tags" is not a string, number, integer, boolean or enum',
    });
    assert.deepEqual(formFields({ type: 'object', properties: { n: null } }), {
      error: 'the requested property "n" is not a string, number, integer, boolean or enum',
    });
  });

  it('refuses a schema without a properties object', () => {
    const error = { error: 'the requested schema has no "properties" object' };
    assert.deepEqual(formFields({ type: 'object' }), error);
    assert.deepEqual(formFields({ type: 'object', properties: [] }), error);
    assert.deepEqual(formFields(undefined), error);
    assert.deepEqual(formFields('schema'), error);
  });
});

describe('elicitation form: initialAnswer', () => {
  it('holds exactly the fields that have a default', () => {
    const fields = fieldsOf({
      type: 'object',
      properties: {
        name: { type: 'string', default: 'Ada' },
        none: { type: 'string' },
        count: { type: 'integer', default: 0 },
        flag: { type: 'boolean', default: false },
        pick: { enum: ['a', 'b'], default: 'b' },
        many: { type: 'array', items: { enum: ['x', 'y'] }, default: ['y'] },
        badDefault: { type: 'number', default: 'seven' },
      },
    });
    assert.deepEqual(initialAnswer(fields), { name: 'Ada', count: 0, flag: false, pick: 'b', many: ['y'] });
  });
});

describe('elicitation form: answerProblems', () => {
  it('accepts a complete, valid answer', () => {
    const fields = fieldsOf({
      type: 'object',
      properties: { name: { type: 'string', minLength: 1 }, age: { type: 'integer', minimum: 0 }, ok: { type: 'boolean' }, pick: { enum: ['a'] }, many: { type: 'array', items: { enum: ['x'] } } },
      required: ['name', 'age', 'ok', 'pick', 'many'],
    });
    assert.deepEqual(answerProblems(fields, { name: 'Ada', age: 3, ok: false, pick: 'a', many: ['x'] }), []);
  });

  it('flags a missing or empty required field, and lets an optional one be empty', () => {
    const fields = fieldsOf({ type: 'object', properties: { name: { type: 'string', title: 'Name' }, note: { type: 'string' } }, required: ['name'] });
    assert.deepEqual(answerProblems(fields, {}), [{ key: 'name', message: 'Name: required' }]);
    assert.deepEqual(answerProblems(fields, { name: '', note: '' }), [{ key: 'name', message: 'Name: required' }]);
  });

  it('checks text length and format, naming the field by its label', () => {
    const text = field({ type: 'string', title: 'Nick', minLength: 3, maxLength: 5 });
    assert.deepEqual(problems(text, 'ab'), ['Nick: at least 3 characters']);
    assert.deepEqual(problems(text, 'abcdef'), ['Nick: at most 5 characters']);
    assert.deepEqual(problems(text, 'abcd'), []);
    assert.deepEqual(problems(text, 4), ['Nick: must be text']);

    const email = field({ type: 'string', title: 'Mail', format: 'email' });
    assert.deepEqual(problems(email, 'not an email'), ['Mail: must be an email address']);
    assert.deepEqual(problems(email, 'a@b'), []);
    assert.deepEqual(problems(email, 'ada@example.com'), []);

    const uri = field({ type: 'string', title: 'Home', format: 'uri' });
    assert.deepEqual(problems(uri, 'example.com/x'), ['Home: must be a URL']);
    assert.deepEqual(problems(uri, 'https://example.com/x'), []);
  });

  it('checks numbers: type, whole numbers, minimum and maximum', () => {
    const count = field({ type: 'integer', title: 'Count', minimum: 1, maximum: 10 });
    assert.deepEqual(problems(count, 2.5), ['Count: must be a whole number']);
    assert.deepEqual(problems(count, 0), ['Count: must be at least 1']);
    assert.deepEqual(problems(count, 11), ['Count: must be at most 10']);
    assert.deepEqual(problems(count, '5'), ['Count: must be a number']);
    assert.deepEqual(problems(count, Number.NaN), ['Count: must be a number']);
    assert.deepEqual(problems(count, 10), []);
    assert.deepEqual(problems(field({ type: 'number', title: 'Ratio' }), 2.5), []);
  });

  it('checks booleans and choice membership', () => {
    assert.deepEqual(problems(field({ type: 'boolean', title: 'Agree' }), 'yes'), ['Agree: must be yes or no']);
    const colour = field({ type: 'string', title: 'Colour', enum: ['r', 'g'], enumNames: ['Red', 'Green'] });
    assert.deepEqual(problems(colour, 'b'), ['Colour: must be one of Red, Green']);
    assert.deepEqual(problems(colour, 'g'), []);
    const tags = field({ type: 'array', title: 'Tags', items: { enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 });
    assert.deepEqual(problems(tags, ['a', 'z']), ['Tags: must be chosen from the list']);
    assert.deepEqual(problems(tags, 'a'), ['Tags: must be chosen from the list']);
    assert.deepEqual(problems(tags, []), ['Tags: choose at least 1']);
    assert.deepEqual(problems(tags, ['a', 'b', 'c']), ['Tags: choose at most 2']);
    assert.deepEqual(problems(tags, ['c', 'a']), []);
  });

  it('reports every field with a problem, in form order', () => {
    const fields = fieldsOf({ type: 'object', properties: { a: { type: 'string', title: 'A' }, b: { type: 'integer', title: 'B' } }, required: ['a', 'b'] });
    assert.deepEqual(answerProblems(fields, { b: 1.5 }), [
      { key: 'a', message: 'A: required' },
      { key: 'b', message: 'B: must be a whole number' },
    ]);
  });
});
