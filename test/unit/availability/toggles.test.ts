import assert from 'node:assert/strict';
import { applyToggle, promote, type AllowToggle, type Availability, type ToggleDirection, type ToggleOutcome, type ToggleScope } from '../../../src/core/availability';

type Expected = Availability | 'unchanged' | 'bulk-ignored' | 'refused';

// Rows: allow_toggle × scope × direction; columns: starting availability off / discoverable / on.
const matrix: [AllowToggle, ToggleScope, ToggleDirection, [Expected, Expected, Expected]][] = [
  ['any', 'bulk', 'enable', ['on', 'on', 'unchanged']],
  ['any', 'bulk', 'disable', ['unchanged', 'off', 'off']],
  ['any', 'named', 'enable', ['on', 'on', 'unchanged']],
  ['any', 'named', 'disable', ['unchanged', 'off', 'off']],
  ['if_named', 'bulk', 'enable', ['bulk-ignored', 'bulk-ignored', 'bulk-ignored']],
  ['if_named', 'bulk', 'disable', ['bulk-ignored', 'bulk-ignored', 'bulk-ignored']],
  ['if_named', 'named', 'enable', ['on', 'on', 'unchanged']],
  ['if_named', 'named', 'disable', ['unchanged', 'off', 'off']],
  ['if_named_or_group', 'bulk', 'enable', ['bulk-ignored', 'bulk-ignored', 'bulk-ignored']],
  ['if_named_or_group', 'named', 'enable', ['on', 'on', 'unchanged']],
  ['never', 'bulk', 'enable', ['bulk-ignored', 'bulk-ignored', 'bulk-ignored']],
  ['never', 'bulk', 'disable', ['bulk-ignored', 'bulk-ignored', 'bulk-ignored']],
  ['never', 'named', 'enable', ['refused', 'refused', 'refused']],
  ['never', 'named', 'disable', ['refused', 'refused', 'refused']],
];

function summarize(outcome: ToggleOutcome): Expected {
  if (outcome.kind === 'changed') return outcome.availability;
  if (outcome.kind === 'refused') return 'refused';
  return outcome.reason === 'already' ? 'unchanged' : 'bulk-ignored';
}

describe('toggle matrix', () => {
  const starts: Availability[] = ['off', 'discoverable', 'on'];
  for (const [allowToggle, scope, direction, expected] of matrix) {
    starts.forEach((availability, i) => {
      it(`${scope} ${direction} of a ${availability} tool with allow_toggle ${allowToggle} → ${expected[i]}`, () => {
        assert.equal(summarize(applyToggle('gh__x', { availability, allowToggle }, direction, scope)), expected[i]);
      });
    });
  }

  it('a refused named toggle says the tool is locked and how to change it', () => {
    const outcome = applyToggle('gh__deploy', { availability: 'on', allowToggle: 'never' }, 'disable', 'named');
    assert.equal(outcome.kind, 'refused');
    if (outcome.kind === 'refused') assert.match(outcome.message, /gh__deploy is locked .*"never".*settings\.json/);
  });
});

describe('promotion', () => {
  it('moves only discoverable to on', () => {
    assert.equal(promote('discoverable'), 'applied');
    assert.equal(promote('on'), 'already-on');
    assert.equal(promote('off'), 'skipped');
  });
});
