import assert from 'node:assert/strict';
import { ReportedOnce } from '../../../src/core/settings/reportedOnce';

describe('problems reported once per change', () => {
  it('the same problem read again is not news; another value of the same setting is', () => {
    const once = new ReportedOnce();
    const bad = (text: string): Map<string, string> => new Map([['quiver.search.maxLoadTokens', text]]);
    assert.deepEqual(once.update(bad('-5 is not valid')), { fresh: [['quiver.search.maxLoadTokens', '-5 is not valid']], gone: [] });
    for (let i = 0; i < 8; i++) assert.deepEqual(once.update(bad('-5 is not valid')), { fresh: [], gone: [] });
    assert.deepEqual(once.update(bad('-6 is not valid')).fresh, [['quiver.search.maxLoadTokens', '-6 is not valid']]);
  });

  it('a problem that went away is withdrawn, and reported again when it comes back', () => {
    const once = new ReportedOnce();
    const problem = new Map([['a', 'bad a']]);
    once.update(problem);
    assert.deepEqual(once.update(new Map()), { fresh: [], gone: ['a'] });
    assert.deepEqual(once.update(problem).fresh, [['a', 'bad a']]);
  });
});
